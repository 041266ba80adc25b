"""The encoder's turns for stored texts: at most `slots` batches at once, admitted in the order
they asked, so one caller's next batch queues behind the others' instead of barging in."""

from __future__ import annotations

import threading
import time

from donto.embedding.encoder import Turns


def test_no_more_than_the_slots_hold_a_turn_at_once():
    turns, inside, most, guard = Turns(2), [0], [0], threading.Lock()

    def work() -> None:
        with turns:
            with guard:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            time.sleep(0.01)
            with guard:
                inside[0] -= 1

    threads = [threading.Thread(target=work) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert most[0] == 2 and inside[0] == 0


def test_a_caller_asking_again_queues_behind_those_already_waiting():
    turns, order = Turns(1), []

    def waiter(name: str) -> None:
        with turns:
            order.append(name)

    with turns:  # the flooding caller holds the turn
        others = [threading.Thread(target=waiter, args=(name,)) for name in ("b", "c")]
        for t in others:
            t.start()
            time.sleep(0.05)  # b asks before c
    with turns:  # and asks again at once
        order.append("a again")
    for t in others:
        t.join(timeout=10)
    assert order == ["b", "c", "a again"]


def test_a_waiter_interrupted_while_it_waits_does_not_take_a_slot_away_for_good(monkeypatch):
    turns = Turns(1)
    with turns:
        # Its wait is interrupted (as by KeyboardInterrupt) while another holds the only slot.
        def interrupted(self, timeout=None):
            raise KeyboardInterrupt

        monkeypatch.setattr(threading.Condition, "wait", interrupted)
        try:
            with turns:
                raise AssertionError("admitted while the slot was held")
        except KeyboardInterrupt:
            pass
        monkeypatch.undo()
    done = threading.Event()

    def later() -> None:
        with turns:
            done.set()

    threading.Thread(target=later, daemon=True).start()
    assert done.wait(timeout=5), "the slot was lost: no one is admitted any more"
