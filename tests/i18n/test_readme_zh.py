"""README.zh-CN.md is README.md in Chinese: the same commands and code, line for line, so that
tests/site/test_docs_snippets.py, which runs README.md's as written, tests these too."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
CJK = re.compile(r"[\u4e00-\u9fff]")


def _code_lines(path: Path) -> list[str]:
    """Every line of every fenced block, a shell comment after the command taken off."""
    lines = []
    for lang, body in FENCE.findall(path.read_text(encoding="utf-8")):
        for line in body.splitlines():
            if lang in ("bash", "sh", ""):
                line = re.sub(r"\s+#\s.*$", "", line) if not line.lstrip().startswith("#") else ""
            if line.strip():
                lines.append(line.rstrip())
    return lines


def test_the_chinese_readme_shows_the_english_commands_and_code() -> None:
    zh, en = _code_lines(ROOT / "README.zh-CN.md"), _code_lines(ROOT / "README.md")
    assert zh == en


def test_the_chinese_readme_is_chinese_and_links_back() -> None:
    text = (ROOT / "README.zh-CN.md").read_text(encoding="utf-8")
    prose = FENCE.sub("", text)
    assert len(CJK.findall(prose)) > 2000
    assert "(README.md)" in text and "(README.zh-CN.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
