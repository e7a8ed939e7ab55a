"""What happened to every line of every transcript file.

Each input line ends in exactly one outcome. The reader decides the outcome of
lines it cannot turn into an entry (blank lines, problems); the build step
decides the outcome of every entry it receives. Tests assert that the outcomes
of a file add up to its number of lines, so nothing can vanish silently.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum


class Outcome(str, Enum):
    # In order of precedence: a line whose entry is partly shown is "rendered".
    RENDERED = "rendered"  # shown as (part of) a message
    MERGED = "merged"  # folded into another message (streamed parts, replays)
    HIDDEN = "hidden"  # left out on purpose, by a config option
    METADATA = "metadata"  # feeds the page (title, links, counts), not a message
    PROBLEM = "problem"  # could not be read; reported with its line number
    BLANK = "blank"  # an empty line


_PRECEDENCE = {outcome: rank for rank, outcome in enumerate(Outcome)}


class Level(str, Enum):
    INFO = "info"
    WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    path: str
    line: int | None
    message: str
    level: Level = Level.WARNING

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


@dataclass
class FileReport:
    """Outcome of each line of one file, and the problems found in it."""

    path: str
    lines: int = 0
    outcomes: dict[int, Outcome] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def mark(self, line: int, outcome: Outcome) -> None:
        """Give ``line`` an outcome; of several, the one that shows most wins
        (a line with one hidden block and one shown block is rendered)."""
        current = self.outcomes.get(line)
        if current is None or _PRECEDENCE[outcome] < _PRECEDENCE[current]:
            self.outcomes[line] = outcome

    def problem(self, line: int | None, message: str, level: Level = Level.WARNING) -> None:
        """Record a problem; the line's outcome is marked separately, since a
        line with a problem (say, invalid UTF-8 replaced) may still render."""
        self.problems.append(Problem(self.path, line, message, level))

    def counts(self) -> Counter[Outcome]:
        return Counter(self.outcomes.values())

    def unaccounted(self) -> list[int]:
        """Line numbers that ended in no outcome (always empty when all is well)."""
        return [n for n in range(1, self.lines + 1) if n not in self.outcomes]


# A file of hundreds of bad lines (a file that only looks like a transcript, one
# garbled on disk) would bury the rest of a build's log: each file's first problems
# are logged one by one, the others in one message naming their lines.
SHOWN_PER_FILE = 10


def condensed(problems: Iterable[Problem], listed_by: str, shown: int = SHOWN_PER_FILE) -> list[Problem]:
    """``problems`` as they are logged: of each file, its first ``shown`` problems,
    then one for the rest, which names their lines (a warning if any of them is) and
    what lists each of them (``listed_by``)."""
    by_path: dict[str, list[Problem]] = {}
    for problem in problems:
        by_path.setdefault(problem.path, []).append(problem)
    logged: list[Problem] = []
    for path, found in by_path.items():
        logged += found[:shown]
        rest = found[shown:]
        if rest:
            level = Level.WARNING if any(p.level is Level.WARNING for p in rest) else Level.INFO
            lines = [p.line for p in rest if p.line is not None]
            where = f" (lines {line_ranges(lines)})" if lines else ""
            logged.append(Problem(path, None, f"{len(rest)} more problems{where}; {listed_by} lists each", level))
    return logged


def line_ranges(lines: list[int], most: int = 12) -> str:
    """``[3, 4, 5, 9]`` as ``3-5, 9``; past ``most`` runs, how many lines more."""
    runs: list[list[int]] = []
    for line in sorted(set(lines)):
        if runs and line == runs[-1][1] + 1:
            runs[-1][1] = line
        else:
            runs.append([line, line])
    text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs[:most])
    left = sum(b - a + 1 for a, b in runs[most:])
    return f"{text} and {left} more" if left else text
