// SPDX-License-Identifier: MIT
// Keyframed rigid tracks: translation and rotation vector interpolated linearly between
// keys, optionally looping, turning about a pivot (colliders and bones move along them).
#include "collision/collision_internal.h"

icRigidTrack icDefaultRigidTrack(void) {
    icRigidTrack t;
    t.pivot = icVec3_Make(0, 0, 0);
    t.keys = NULL;
    t.keyCount = 0;
    t.loop = false;
    return t;
}

icRigidKey icDefaultRigidKey(void) {
    icRigidKey k;
    k.time = 0;
    k.translation = icVec3_Make(0, 0, 0);
    k.axis = icVec3_Make(0, 1, 0);
    k.degrees = 0;
    return k;
}

icResult icTrack_Copy(icTrack *dst, const icRigidTrack *src) {
    memset(dst, 0, sizeof *dst);
    if (!icVec3_IsFinite(src->pivot)) return IC_ERR_NOT_FINITE;
    if (src->keyCount < 0 || (src->keyCount > 0 && !src->keys)) return IC_ERR_BAD_VALUE;
    for (int i = 0; i < src->keyCount; ++i) {
        const icRigidKey *k = &src->keys[i];
        if (!isfinite(k->time) || !icVec3_IsFinite(k->translation) || !icVec3_IsFinite(k->axis) ||
            !isfinite(k->degrees))
            return IC_ERR_NOT_FINITE;
        if (i > 0 && !(k->time >= src->keys[i - 1].time)) return IC_ERR_BAD_VALUE;
        if (k->degrees != 0 && !(icVec3_Length(k->axis) > 0)) return IC_ERR_BAD_VALUE;
    }
    // A loop needs a period.
    if (src->loop && src->keyCount >= 1 &&
        !(src->keys[src->keyCount - 1].time > src->keys[0].time))
        return IC_ERR_BAD_VALUE;
    dst->pivot = src->pivot;
    dst->loop = src->loop;
    if (src->keyCount > 0) {
        dst->keys = IC_ALLOC(icRigidKey, src->keyCount);
        if (!dst->keys) return IC_ERR_OUT_OF_MEMORY;
        memcpy(dst->keys, src->keys, sizeof(icRigidKey) * (size_t)src->keyCount);
        dst->keyCount = src->keyCount;
    }
    return IC_OK;
}

void icTrack_Destroy(icTrack *track) {
    icFree(track->keys);
    memset(track, 0, sizeof *track);
}

// A key's rotation as a rotation vector (axis * radians): linear interpolation of these
// turns about a common axis at a constant rate through any angle.
static icVec3 rotationVector(const icRigidKey *k) {
    if (k->degrees == 0) return icVec3_Make(0, 0, 0);
    return icVec3_Scale(k->degrees * (IC_PI / 180.0), icVec3_Normalize(k->axis));
}

icXform icTrack_Evaluate(const icTrack *track, icReal t) {
    if (track->keyCount == 0) return icXform_Identity();
    const icRigidKey *k = track->keys;
    int n = track->keyCount;
    if (track->loop) {
        icReal period = k[n - 1].time - k[0].time;
        icReal u = fmod(t - k[0].time, period);
        if (u < 0) u += period;
        t = k[0].time + u;
    }
    icVec3 translation, rotation;
    if (t <= k[0].time) {
        translation = k[0].translation;
        rotation = rotationVector(&k[0]);
    } else if (t >= k[n - 1].time) {
        translation = k[n - 1].translation;
        rotation = rotationVector(&k[n - 1]);
    } else {
        int i = 0; // last key at or before t (keys are few; a linear scan is fine)
        while (i + 1 < n && k[i + 1].time <= t) ++i;
        icReal span = k[i + 1].time - k[i].time;
        icReal f = span > 0 ? (t - k[i].time) / span : 1;
        icVec3 r0 = rotationVector(&k[i]), r1 = rotationVector(&k[i + 1]);
        translation = icVec3_Add(icVec3_Scale(1 - f, k[i].translation), icVec3_Scale(f, k[i + 1].translation));
        rotation = icVec3_Add(icVec3_Scale(1 - f, r0), icVec3_Scale(f, r1));
    }
    icXform x;
    icReal angle = icVec3_Length(rotation);
    x.R = angle > 0 ? icMat3_Rotation(rotation, angle) : icMat3_Identity();
    // Turn about the pivot, then translate: x = R (x0 - c) + c + translation.
    x.T = icVec3_Add(icVec3_Sub(track->pivot, icMat3_MulVec(x.R, track->pivot)), translation);
    return x;
}

void icRigidTrack_Evaluate(const icRigidTrack *track, icReal t, icMat3 *R, icVec3 *T) {
    // Evaluate through a non-owning view (no copy, no allocation).
    icTrack view = {track->pivot, (icRigidKey *)track->keys, track->keyCount, track->loop};
    if (track->keyCount > 0 && !track->keys) view.keyCount = 0;
    if (view.loop && view.keyCount > 0 && !(view.keys[view.keyCount - 1].time > view.keys[0].time))
        view.loop = false;
    icXform x = icTrack_Evaluate(&view, t);
    if (R) *R = x.R;
    if (T) *T = x.T;
}
