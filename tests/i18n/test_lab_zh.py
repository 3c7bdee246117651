"""``bash .ci/lab --lang zh-CN``: JupyterLab in Chinese, at the Chinese edition's landing page."""
from __future__ import annotations

import json
import urllib.request

from tests.test_course_map import _landing_of, lab_server


def test_the_chinese_lab_opens_at_the_chinese_map(tmp_path) -> None:
    assert _landing_of(tmp_path, "--lang", "zh-CN").split("?")[0].endswith("/lab/tree/zh-CN/welcome.ipynb")


def test_the_chinese_lab_speaks_chinese(tmp_path) -> None:
    with lab_server(tmp_path, "--lang=zh-CN") as (base, token):
        setting = json.load(urllib.request.urlopen(
            f"{base}/lab/api/settings/@jupyterlab/translation-extension:plugin?token={token}", timeout=30))
        assert setting["settings"]["locale"] == "zh_CN"
        packs = json.load(urllib.request.urlopen(f"{base}/lab/api/translations/?token={token}", timeout=30))
        assert "zh_CN" in packs["data"], "the zh-CN language pack is not installed"
        menu = json.load(urllib.request.urlopen(f"{base}/lab/api/translations/zh_CN?token={token}", timeout=30))
        assert menu["data"], "the language pack has no strings"


def test_an_unknown_language_is_one_line_and_exit_2() -> None:
    import subprocess

    from tests.test_course_map import ROOT

    out = subprocess.run(["bash", ".ci/lab", "--lang", "fr", "--no-browser"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 2 and out.stderr.strip().count("\n") == 0 and "unknown language 'fr'" in out.stderr
