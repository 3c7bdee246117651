"""The code a markdown page shows: its fenced blocks, and each shell command in them.

A ``bash`` block gives one snippet per command: lines ending in a backslash are joined,
comments (``# ...`` outside quotes) and blank lines dropped. Any other block (``python``,
``yaml``, a block without a language, which shows output) is one snippet.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+|~~~+)(?P<lang>[\w+-]*)\s*$")


@dataclass(frozen=True)
class Snippet:
    doc: str    # the page, relative to the project root
    line: int   # the line of the page where the snippet starts (1-based)
    lang: str   # "bash", "python", "yaml", "" (shown output), ...
    text: str   # one command (bash), or the whole block

    @property
    def id(self) -> str:
        first = self.text.strip().splitlines()[0] if self.text.strip() else ""
        return f"{self.doc}:{self.line}: {first[:60]}"


def fenced_blocks(text: str) -> list[tuple[int, str, str]]:
    """(first content line, language, content) of every fenced block, indentation of the fence removed."""
    blocks = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = len(m["indent"]), m["fence"], m["lang"]
        body, j = [], i + 1
        while j < len(lines) and lines[j].strip() != fence:
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        blocks.append((i + 2, lang, "\n".join(body) + "\n"))
        i = j + 1
    return blocks


def strip_comment(line: str) -> str:
    """``line`` without a shell comment: a ``#`` at the start or after a blank, outside quotes."""
    quote = None
    for k, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (k == 0 or line[k - 1].isspace()):
            return line[:k].rstrip()
    return line.rstrip()


def shell_commands(block: str) -> list[tuple[int, str]]:
    """(offset of its first line in the block, command) of every command in a shell block."""
    commands, current, start = [], [], 0
    for k, raw in enumerate(block.splitlines()):
        line = strip_comment(raw)
        if not current:
            start = k
        if line.endswith("\\"):
            current.append(line[:-1].strip())
            continue
        current.append(line.strip())
        command = " ".join(part for part in current if part)
        current = []
        if command:
            commands.append((start, command))
    if current and any(current):
        commands.append((start, " ".join(part for part in current if part)))
    return commands


def snippets(root: Path, doc: str) -> list[Snippet]:
    """Every snippet of the page ``root / doc``, in the page's order."""
    found = []
    for line, lang, body in fenced_blocks((root / doc).read_text(encoding="utf-8")):
        if lang in ("bash", "sh", "shell", "console"):
            found += [Snippet(doc, line + offset, "bash", command) for offset, command in shell_commands(body)]
        else:
            found.append(Snippet(doc, line, lang, body))
    return found
