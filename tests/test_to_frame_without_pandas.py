"""``Recorder.to_frame()`` without pandas: one line saying which extra brings it.

``pip install .`` installs the library alone (PyYAML); pandas comes with the ``[course]`` extra.
"""
from __future__ import annotations

import sys

import pytest

from ksched_edu.trace import Recorder


def test_to_frame_names_the_course_extra_when_pandas_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    with pytest.raises(ModuleNotFoundError) as raised:
        Recorder().to_frame()
    message = str(raised.value)
    assert "\n" not in message and 'pip install "ksched_edu[course]"' in message, message
    assert raised.value.name == "pandas" and raised.value.__cause__ is None and raised.value.__suppress_context__
