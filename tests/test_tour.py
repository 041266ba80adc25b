"""The README's tour (examples/tour.py) runs verbatim against a running donto, as a newcomer runs it,
and says what it promises: the document's sentence at its offsets, the derived claim turning stale
when its premise is superseded, as-of reads on both axes, claim states in the bundle."""

from __future__ import annotations

import os
import subprocess
import sys

from support import ADMIN_KEY, REPO, served_api


def test_the_tour_runs_as_written_against_a_running_donto(settings, tmp_path):
    served = settings.model_copy(update={"api": settings.api.model_copy(update={"run_workers": False})})
    with served_api(served) as port:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DONTO_")}
        env |= {"DONTO_URL": f"http://127.0.0.1:{port}", "DONTO_API_KEY": ADMIN_KEY}
        run = subprocess.run(
            [sys.executable, str(REPO / "examples" / "tour.py")],
            cwd=tmp_path,  # anywhere: the tour needs no checkout around it
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    print(run.stdout)
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    assert "'Ann moved to Lisbon in 2019 and takes the metro to the office.'" in out
    assert "resting on ann lives_in lisbon: UNVERIFIED" in out
    assert "the commute claim is now POTENTIALLY_STALE: its premise was superseded" in out
    assert "where did ann live on 2020-01-01? lisbon" in out and "where did ann live on 2025-01-01? porto" in out
    assert "as donto knew it before the move was recorded: lisbon" in out
    assert "(superseded)" in out and "(current)" in out
    assert "Ann said: [20 November 2024; last Saturday: 16 November 2024]" in out, out
