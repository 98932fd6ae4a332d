"""The costliest rulesets `rules check` lets through, loaded and scored for 100 hands in one process,
beside a bundled ruleset doing the same: CPU seconds and peak memory of each, in separate processes.

    python bench/worst_ruleset.py            # 100 hands each
    python bench/worst_ruleset.py --quick    # 20 hands each (CI's smoke run)

Target (the hardening issue): any ruleset that passes scores 100 hands in one process within 1 s of
CPU beyond the bundled rulesets' and within 200 MB. The rulesets are made by tests/rules/worst_rulesets.py:
`runs` sits at the bound on formulas run a hand (1,500 with 12 players), `steps` at the bound on
steps a hand (50,000); `attack` is the 46 KB file of 1,500 lets that once took 9 s and 1.8 GB, and
must be refused at load.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.rules.worst_rulesets import long_list, many_lets  # noqa: E402

CHILD = r"""
import json, resource, sys, time
t = time.process_time()
from scorepad.rules.registry import load
from scorepad.engine.game import initial_state, make_game
from scorepad.errors import ScorepadError
from scorepad.app.games import type_and_score
spec, players, hands = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
try:
    rs = load(spec)
except ScorepadError as exc:
    print(json.dumps({"refused": exc.problems[:1] or [exc.message]}))
    raise SystemExit(0)
game = make_game(rs, [f"p{i}" for i in range(players)], None, {})
state = initial_state(game)
for h in range(hands):
    args = sys.argv[4].replace("H", str(h % 5)).split()
    _raw, _hand, result = type_and_score(game, state, args)
    state = result.state if not result.state["finished"] else initial_state(game)
print(json.dumps({"cpu": time.process_time() - t,
                  "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def measure(spec: str, players: int, hands: int, typed: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", CHILD, spec, str(players), str(hands), typed],
                         capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise SystemExit(f"{spec}: {out.stderr[-500:]}")
    return dict(json.loads(out.stdout))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    hands = 20 if parser.parse_args().quick else 100
    twelve = "pts=" + ",".join(["H"] * 12)
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, text in (("runs", many_lets(119)), ("steps", long_list(370)), ("attack", many_lets(1500))):
            files[name] = Path(tmp) / f"{name}.toml"
            files[name].write_text(text, encoding="utf-8")
        rows = [("bundled: hearts, 4 players", measure("hearts", 4, hands, "hearts=1,4,3,5 queen=p0")),
                ("bundled: spades, 4 players", measure("spades", 4, hands, "bid=4,3,3,3 tricks=5,3,3,2")),
                ("worst: 1,428 formulas a hand", measure(str(files["runs"]), 12, hands, twelve)),
                ("worst: 49,167 steps a hand", measure(str(files["steps"]), 12, hands, twelve)),
                ("attack: 18,037 formulas a hand", measure(str(files["attack"]), 12, hands, twelve))]
    base = max(float(r["cpu"]) for name, r in rows if name.startswith("bundled"))  # type: ignore[arg-type]
    print(f"{hands} hands in one process (load, compile, score):")
    for name, r in rows:
        if "refused" in r:
            print(f"  {name:34} refused at load: {str(r['refused'])[:90]}...")
        else:
            extra = float(r["cpu"]) - base  # type: ignore[arg-type]
            print(f"  {name:34} {float(r['cpu']):6.2f} s CPU ({extra:+.2f} s beyond the bundled; target +1 s)"  # type: ignore[arg-type]
                  f"  {float(r['mb']):6.0f} MB (target 200)")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
