"""The event loop of one shot: find the next event, advance every ball to it, resolve it, record it, and refresh only
the cached event times of the balls whose motion changed (steps.py: its steps for balls on the cloth; air.py: for balls
in the air).

A shot runs on the cloth (the flat model) until a ball leaves it: the cue strike drives the cue ball into the slate
and it jumps (``air.lifts_off``), or a contact between two balls on the cloth gives one a vertical velocity that lifts
it (flight.leaves_cloth: the follow-shot hop). From then on the loop also moves balls in the air and resolves their
events (``air.in_the_air``, ``air.air_event``), and logs heights and vertical velocities in ``ev_air``, until every
ball is down again (``air.any_airborne``): then it takes the flat steps again, which give balls on the cloth the same
results at half the cost per event (their rows of ``ev_air`` stay zero, as the air's steps would log them). Until a
ball leaves the cloth nothing of the air is touched, so a shot in which none does is the flat model bit for bit. The
event body for balls on the cloth is written out here, once, for both (an inlined function's array arguments cost
reference counts every event: steps.py). The air's steps are called from here one after the other (resolve, log,
refresh), not one from another: numba compiles every kernel's callees into it again, so a chain of calls compiled the
refresh into each kernel on the way.
"""

import math

from physics.kernels.air import (
    advance_air, air_box, air_event, any_airborne, finish_event, in_the_air, lifts_off, record_air, refresh, vertical,
)
from physics.kernels.codes import (
    AIRBORNE, EV_AIRBORNE, EV_BALL_BALL, EV_CUSHION, EV_JAW, EV_ROLL_SPIN, EV_ROLL_STOP, EV_SLIDE_ROLL, EV_SPIN_STOP, EV_STICK,
    EV_TRANSITION, FLAG_AIRBORNE, FLAG_EVENT_CAP, FLAG_IN_FLIGHT, FLAG_TIME_CAP, POCKETED, ROLLING, SLIDING, SPINNING,
)
from physics.kernels.flight import landing_time, leaves_cloth
from physics.kernels.jit import kernel
from physics.kernels.motion import acceleration, end_transition, transition_time
from physics.kernels.resolve import ball_ball, ball_cushion, ball_jaw, cue_strike
from physics.kernels.steps import (
    CHAIN_WINDOW, INF, JAW_CONTACT, RAIL_CONTACT, ZENO_SPEED, ZENO_WINDOW, advance_all, end_rail_contact, new_caches,
    next_event, part_pair, path_box, reclassify, record, refresh_ball, safety_net, snap_to_rolling, sustained,
)
from physics.params import P_E_STRIKE, P_E_TABLE, P_EB, P_G, P_R


@kernel(refcounts=True)  # it allocates the per-shot caches (steps.new_caches)
def simulate_kernel(pos, vel, spin, motion, pocket, shot, strike, segments, jaws, pockets, width, length, rail, p,
                    max_events, max_time, ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b, ev_air):
    """Simulate one shot in place. Returns (number of events, flags: FLAG_EVENT_CAP | FLAG_TIME_CAP |
    FLAG_UNRESOLVED | FLAG_AIRBORNE | FLAG_IN_FLIGHT).

    pos (n, 2), vel (n, 2), spin (n, 3), motion (n,), pocket (n,) are updated in place; shot is
    (V0, phi [rad], theta [rad], a, b), applied to ball 0 when ``strike``; p is PhysicsParams.to_array(); ``rail`` is
    Table.rail. The first len(ev_time) events are written to the ev_* buffers; later ones are simulated but not
    logged (the caller reruns with a larger log when it needs them all), so the physics never depends on the log's
    size. At most ``max_events`` events are simulated. ``ev_air`` (rows, AIR_LOG_W; any contents, it may have no
    rows) is zeroed when a ball leaves the cloth (FLAG_AIRBORNE) and gets the height of the bottom above the cloth and
    the vertical velocity of ball_a and ball_b after each logged event, as far as it has rows; otherwise it is left
    as it was.
    """
    n = pos.shape[0]
    (t_trans, t_pair, t_rail, rail_kind, rail_id, t_pocket, pocket_id, acc, box, last_pair_time, memory, air,
     over) = new_caches(n)
    last_rail_time, last_zeno_time, last_zeno_with = memory[0], memory[1], memory[2]
    hz = air[0]
    vz = air[1]
    e_table = p[P_E_TABLE]
    t = 0.0
    count = 0
    flags = 0
    in_air = False  # a ball is in the air: the steps of air.py run, until every ball is down again (any_airborne)
    for i in range(n):
        if motion[i] < POCKETED:
            reclassify(i, vel, spin, motion, p)
    if strike:
        vx, vy, vzs, wx, wy, wz = cue_strike(shot[0], shot[1], shot[2], shot[3], shot[4], p)
        vel[0, 0] = vx
        vel[0, 1] = vy
        spin[0, 0] = wx
        spin[0, 1] = wy
        spin[0, 2] = wz
        jumped = False
        if lifts_off(shot, p):  # driven into the slate, it bounces up
            in_air = True
            flags |= FLAG_AIRBORNE
            ev_air[:] = 0.0
            jumped = vertical(0, vzs, p[P_E_STRIKE], vel, spin, motion, hz, vz, p)
        else:
            reclassify(0, vel, spin, motion, p)
        if count < ev_time.shape[0]:
            record(count, 0.0, EV_STICK, 0, -1, -1, pos, vel, spin, motion,
                   ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b)
            if in_air:
                record_air(count, 0, -1, hz, vz, ev_air)
        count += 1
        if jumped and count < max_events:  # with room in the log (max_events = 1: the shot stops with it in the air)
            if count < ev_time.shape[0]:
                record(count, 0.0, EV_AIRBORNE, 0, -1, -1, pos, vel, spin, motion,
                       ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b)
                record_air(count, 0, -1, hz, vz, ev_air)
            count += 1
    # Transition times first, so that pair windows see every ball's own horizon.
    for i in range(n):
        if motion[i] == AIRBORNE:
            t_trans[i] = landing_time(hz[i], vz[i], p[P_G])
            air_box(i, t_trans[i], pos, vel, box)
        elif motion[i] < POCKETED:
            t_trans[i] = transition_time(motion[i], vel[i, 0], vel[i, 1], spin[i, 0], spin[i, 1], spin[i, 2], p)
            ax, ay = acceleration(motion[i], vel[i, 0], vel[i, 1], spin[i, 0], spin[i, 1], p)
            acc[i, 0] = ax
            acc[i, 1] = ay
            path_box(i, t_trans[i], pos, vel, acc, motion, box)
    for i in range(n):
        if motion[i] < POCKETED or motion[i] == AIRBORNE:  # caches start at inf: balls off the table need none
            if in_air:
                refresh(i, -1, t, pos, vel, spin, motion, hz, vz, over, rail, width, length, segments, jaws, pockets,
                        p, t_trans, t_pair, t_rail, rail_kind, rail_id, t_pocket, pocket_id, acc, box)
            else:
                refresh_ball(i, -1, t, pos, vel, spin, motion, segments, jaws, pockets, p,
                             t_trans, t_pair, t_rail, rail_kind, rail_id, t_pocket, pocket_id, acc, box)
    while True:
        te, kind, a, b = next_event(t_trans, t_pair, t_rail, rail_kind, t_pocket)
        if te == INF:
            break
        if te > max_time:
            advance_all(pos, vel, spin, motion, max_time - t, p)
            if in_air:
                advance_air(pos, vel, motion, hz, vz, max_time - t, p)
            t = max_time
            flags |= FLAG_TIME_CAP
            break
        if count >= max_events:
            flags |= FLAG_EVENT_CAP
            break
        advance_all(pos, vel, spin, motion, te - t, p)
        if in_air:
            advance_air(pos, vel, motion, hz, vz, te - t, p)
        t = te
        if in_air and in_the_air(kind, a, b, motion):
            kind, target, leaves_a, leaves_b = air_event(kind, a, b, t, pos, vel, spin, motion, pocket, segments, jaws,
                                                         pockets, width, length, rail, p, rail_id, last_pair_time, air,
                                                         over)
        else:
            # an event of balls on the cloth
            target = -1
            vza = 0.0
            vzb = 0.0
            if kind == EV_TRANSITION:
                st = motion[a]
                nst, vx, vy, wx, wy, wz = end_transition(st, vel[a, 0], vel[a, 1], spin[a, 0], spin[a, 1], spin[a, 2],
                                                         p)
                vel[a, 0] = vx
                vel[a, 1] = vy
                spin[a, 0] = wx
                spin[a, 1] = wy
                spin[a, 2] = wz
                motion[a] = nst
                if st == SLIDING:
                    kind = EV_SLIDE_ROLL
                elif st == ROLLING:
                    kind = EV_ROLL_SPIN if nst == SPINNING else EV_ROLL_STOP
                else:
                    kind = EV_SPIN_STOP
            elif kind == EV_BALL_BALL:
                since = t - last_pair_time[a, b]
                chained = since <= CHAIN_WINDOW
                last_pair_time[a, b] = t
                approach = ((vel[a, 0] - vel[b, 0]) * (pos[b, 0] - pos[a, 0])
                            + (vel[a, 1] - vel[b, 1]) * (pos[b, 1] - pos[a, 1]))
                zeno = since <= ZENO_WINDOW and approach < ZENO_SPEED * 2.0 * p[P_R]
                e = 1.0 if chained else p[P_EB]
                r = ball_ball(pos[a, 0], pos[a, 1], vel[a, 0], vel[a, 1], spin[a, 0], spin[a, 1], spin[a, 2],
                              pos[b, 0], pos[b, 1], vel[b, 0], vel[b, 1], spin[b, 0], spin[b, 1], spin[b, 2], e, p)
                vel[a, 0], vel[a, 1], spin[a, 0], spin[a, 1], spin[a, 2] = r[0], r[1], r[2], r[3], r[4]
                vel[b, 0], vel[b, 1], spin[b, 0], spin[b, 1], spin[b, 2] = r[5], r[6], r[7], r[8], r[9]
                vza, vzb = r[10], r[11]
                if zeno:
                    snap_to_rolling(a, vel, spin, p)
                    snap_to_rolling(b, vel, spin, p)
                    part_pair(a, b, pos, vel, spin, p)
                    sustained(a, b, t, last_zeno_time, last_zeno_with, vel, spin)
                    sustained(b, a, t, last_zeno_time, last_zeno_with, vel, spin)
                reclassify(a, vel, spin, motion, p)
                reclassify(b, vel, spin, motion, p)
            elif kind == EV_CUSHION or kind == EV_JAW:
                target = rail_id[a]
                if kind == EV_CUSHION:
                    nx = segments[target, 4]
                    ny = segments[target, 5]
                else:
                    nx = pos[a, 0] - jaws[target, 0]
                    ny = pos[a, 1] - jaws[target, 1]
                    d = math.sqrt(nx * nx + ny * ny)
                    nx /= d
                    ny /= d
                zeno = (t - last_rail_time[a] <= ZENO_WINDOW
                        and -(vel[a, 0] * nx + vel[a, 1] * ny) < ZENO_SPEED)
                last_rail_time[a] = t
                if kind == EV_CUSHION:
                    vx, vy, wx, wy, wz = ball_cushion(vel[a, 0], vel[a, 1], spin[a, 0], spin[a, 1], spin[a, 2], nx, ny,
                                                      p)
                else:
                    vx, vy, wx, wy, wz = ball_jaw(vel[a, 0], vel[a, 1], spin[a, 0], spin[a, 1], spin[a, 2], nx, ny,
                                                  jaws[target, 2], p)
                vel[a, 0] = vx
                vel[a, 1] = vy
                spin[a, 0] = wx
                spin[a, 1] = wy
                spin[a, 2] = wz
                if zeno:
                    end_rail_contact(a, nx, ny, vel, spin, p)
                    sustained(a, (RAIL_CONTACT if kind == EV_CUSHION else JAW_CONTACT) + target, t, last_zeno_time,
                               last_zeno_with, vel, spin)
                reclassify(a, vel, spin, motion, p)
            else:  # pocket
                target = pocket_id[a]
                motion[a] = POCKETED
                pocket[a] = target
                vel[a, 0] = 0.0
                vel[a, 1] = 0.0
                spin[a, 0] = 0.0
                spin[a, 1] = 0.0
                spin[a, 2] = 0.0
            lifts = kind == EV_BALL_BALL and (leaves_cloth(vza, p) or leaves_cloth(vzb, p))
            if not (in_air or lifts):
                if count < ev_time.shape[0]:
                    record(count, t, kind, a, b, target, pos, vel, spin, motion,
                           ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b)
                count += 1
                refresh_ball(a, b, t, pos, vel, spin, motion, segments, jaws, pockets, p,
                             t_trans, t_pair, t_rail, rail_kind, rail_id, t_pocket, pocket_id, acc, box)
                if b >= 0:
                    refresh_ball(b, -1, t, pos, vel, spin, motion, segments, jaws, pockets, p,
                                 t_trans, t_pair, t_rail, rail_kind, rail_id, t_pocket, pocket_id, acc, box)
                continue
            # the vertical part of a contact between two balls on the cloth, then log and refresh as in the air
            if not in_air:  # the follow-shot hop: the air's steps from this contact on, the events so far kept
                in_air = True
                if not flags & FLAG_AIRBORNE:  # the first ball to leave the cloth in this shot
                    flags |= FLAG_AIRBORNE
                    ev_air[:] = 0.0
            leaves_a = leaves_b = False
            if kind == EV_BALL_BALL:
                leaves_a = vertical(a, vza, e_table, vel, spin, motion, hz, vz, p)
                leaves_b = vertical(b, vzb, e_table, vel, spin, motion, hz, vz, p)
        count = finish_event(kind, a, b, target, leaves_a, leaves_b, t, count, max_events, pos, vel, spin, motion,
                             pocket, hz, vz, over, rail, ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a,
                             ev_state_b, ev_air)
        refresh(a, b, t, pos, vel, spin, motion, hz, vz, over, rail, width, length, segments, jaws, pockets, p,
                t_trans, t_pair, t_rail, rail_kind, rail_id, t_pocket, pocket_id, acc, box)
        if b >= 0:
            refresh(b, -1, t, pos, vel, spin, motion, hz, vz, over, rail, width, length, segments, jaws, pockets, p,
                    t_trans, t_pair, t_rail, rail_kind, rail_id, t_pocket, pocket_id, acc, box)
        in_air = any_airborne(motion)
    if in_air:
        for i in range(n):
            if motion[i] == AIRBORNE:  # a cap stopped the shot with this ball in the air: where it comes down is not
                # known, so the shot is unresolved; it stays AIRBORNE where it flies, and nothing is logged that the
                # rules could read as a ball leaving the table
                flags |= FLAG_IN_FLIGHT
    return safety_net(t, count, flags, max_events, pos, vel, spin, motion, pocket, segments, jaws, pockets, width,
                      length, p, ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b)
