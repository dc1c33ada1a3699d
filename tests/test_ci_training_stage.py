"""The README's test command skips the tests that need torch (the [train] extra is left out);
.ci/run's training stage installs torch and must run every one of them, or they never run."""
from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def torch_test_files() -> set[str]:
    return {f"tests/{p.name}" for p in (REPO / "tests").glob("test_*.py")
            if re.search(r"importorskip\(\s*[\"']torch[\"']|^\s*import torch", p.read_text(), re.M)}


def test_the_training_stage_runs_every_test_file_that_needs_torch():
    stage = (REPO / ".ci" / "run").read_text().split('echo "== Training tests', 1)[1].split('echo "==', 1)[0]
    run = [line for line in stage.splitlines() if line.startswith("python3 -m pytest")]
    assert len(run) == 1, stage
    needed = torch_test_files()
    assert {"tests/test_learning_train.py", "tests/test_learning_recipe.py"} <= needed
    missing = needed - set(run[0].split())
    assert not missing, f".ci/run's training stage leaves out {sorted(missing)}"
