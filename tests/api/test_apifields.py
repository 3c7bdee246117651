"""ksched_edu/api/apifields.py is exactly what tests/api/make_apifields.py writes from the
Kubernetes Python client 30.1.0 (the API types of release-1.30). The wheel is downloaded
once with pip into .cache/apifields/; without a package index the check is skipped."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_apifields  # noqa: E402

CACHE = ROOT / ".cache" / "apifields"


def _wheel() -> Path:
    name = f"kubernetes-{make_apifields.CLIENT_VERSION}-py2.py3-none-any.whl"
    if not (CACHE / name).exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        run = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                              "--disable-pip-version-check", "-d", str(CACHE),
                              f"kubernetes=={make_apifields.CLIENT_VERSION}"],
                             capture_output=True, text=True, timeout=300)
        if run.returncode != 0 or not (CACHE / name).exists():
            pytest.skip("the field table is checked against the Kubernetes Python client "
                        f"{make_apifields.CLIENT_VERSION}, which pip could not download here "
                        f"(no package index?): {run.stderr.strip().splitlines()[-1:] or ''}")
    return CACHE / name


def test_the_field_table_is_the_client_s() -> None:
    assert make_apifields.TABLE.read_text(encoding="utf-8") == make_apifields.build(_wheel())
