"""Instructions per replayed hand, this engine against the one before (bench/before.py), counted
by valgrind's callgrind: a figure a loaded machine does not change.

    python bench/instructions.py [RULESET ...]     # default: spades pinochle bridge euchre

Each engine replays the ruleset's scenario hands (as bench/run.py does) for 2 and for 12 passes in a
child under callgrind; the difference of the two counts over the 10 extra passes is the cost of the
hands alone (start-up, imports and the first compilation cancel out).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHILD = """
import sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {bench!r})
from run import scenario_sequences
from types import SimpleNamespace
from scorepad.engine import game, scoring
from before import engine_before
legacy_engine = engine_before()
rid, which, passes = sys.argv[1], sys.argv[2], int(sys.argv[3])
seqs = scenario_sequences(rid)
engine = SimpleNamespace(initial_state=game.initial_state, apply_hand=scoring.apply_hand)
mod = engine if which == "new" else legacy_engine
for _ in range(passes):
    for game, hands in seqs:
        state = mod.initial_state(game)
        for hand in hands:
            state = mod.apply_hand(game, state, hand).state
print(sum(len(h) for _, h in seqs))
"""


def count(rid: str, which: str, passes: int) -> tuple[int, int]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        script = CHILD.format(root=str(ROOT), bench=str(ROOT / "bench"))
        r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                            sys.executable, "-c", script, rid, which, str(passes)],
                           capture_output=True, text=True, check=True)
        m = re.search(r"Collected : (\d+)", r.stderr)
        if not m:
            raise SystemExit(f"no instruction count from callgrind:\n{r.stderr[-2000:]}")
        return int(m.group(1)), int(r.stdout.strip().splitlines()[-1])


def main() -> None:
    rids = sys.argv[1:] or ["spades", "pinochle", "bridge", "euchre"]
    print(f"{'ruleset':12} {'instr/hand now':>15} {'before':>15} {'ratio':>7}")
    for rid in rids:
        per: dict[str, float] = {}
        for which in ("new", "old"):
            low, hands = count(rid, which, 2)
            high, _ = count(rid, which, 12)
            per[which] = (high - low) / (10 * hands)
        print(f"{rid:12} {per['new']:15,.0f} {per['old']:15,.0f} {per['old'] / per['new']:6.2f}x")


if __name__ == "__main__":
    main()
