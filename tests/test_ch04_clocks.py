"""Chapter 04 checks nothing the clocks say.

Section 7 of chapter 04 times a cycle and shows the times, labelled as one
machine's measurement; what it asserts is the work (nodes examined, plugin calls
per pod, virtual time), which is the same on every machine. These tests run the
chapter in a kernel whose clocks tell nothing of the work: ``time.perf_counter``,
``perf_counter_ns``, ``process_time``, ``process_time_ns``, ``monotonic``,
``monotonic_ns`` and ``time`` all read one counter that moves on by one
microsecond at each call, from before the chapter's first cell. The chapter must
still pass strict nbval against its committed outputs.

The chapter is run from a copy in a temporary folder, with nothing of the
repository beside it: its data files are found with ``ksched_edu.resources``.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "notebooks" / "04_schedule_one.ipynb"
KERNEL = "ksched-edu-counting-clocks"

pytestmark = pytest.mark.ch04

# Run by the kernel before any cell (IPKernelApp.exec_files), in the user namespace:
# hence one function that leaves nothing behind but the patched clocks.
COUNTING_CLOCKS = '''
def _ksched_edu_counting_clocks():
    import asyncio
    import itertools
    import time

    ticks = itertools.count(1)   # one microsecond per call, whichever clock is read
    epoch = int(time.time())     # time.time() still reads as a date, frozen but for the ticks

    def seconds(origin=0):
        return lambda: origin + next(ticks) / 1e6

    def nanoseconds(origin=0):
        return lambda: origin * 1_000_000_000 + next(ticks) * 1000

    # The kernel's own event loops keep the real clock: their timers (output flushes, short
    # sleeps) would otherwise wait a real second for a million calls. Only the cells' reads count.
    real_monotonic = time.monotonic
    asyncio.base_events.BaseEventLoop.time = lambda loop: real_monotonic()

    time.perf_counter = seconds()
    time.perf_counter_ns = nanoseconds()
    time.process_time = seconds()
    time.process_time_ns = nanoseconds()
    time.monotonic = seconds()
    time.monotonic_ns = nanoseconds()
    time.time = seconds(epoch)


_ksched_edu_counting_clocks()
del _ksched_edu_counting_clocks
'''


def sanitize_file() -> Path:
    """The sanitize file of the notebooks' strict nbval run, wherever it is kept."""
    candidates = [ROOT / "notebooks" / "sanitize.cfg",
                  *sorted(ROOT.glob(".ci/**/*sanitize*.cfg")), *sorted(ROOT.glob("tests/**/*sanitize*.cfg"))]
    for path in candidates:
        if path.is_file():
            return path
    pytest.fail("no sanitize file for nbval in notebooks/, .ci/ or tests/")


@pytest.fixture(scope="module")
def counting_kernel(tmp_path_factory) -> dict:
    """A kernelspec whose kernel patches the clocks at start-up; the environment that finds it."""
    share = tmp_path_factory.mktemp("jupyter")
    setup = share / "counting_clocks.py"
    setup.write_text(COUNTING_CLOCKS)
    spec = share / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}",
                 f"--IPKernelApp.exec_files={json.dumps([str(setup)])}"],
        "display_name": "Python 3 (clocks that count calls)",
        "language": "python",
    }))
    env = dict(os.environ)
    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(share), env.get("JUPYTER_PATH")]))
    env["PYTHONHASHSEED"] = "0"
    env.setdefault("KSCHED_EDU_OFFLINE", "1")  # the SourceViews read no Go from the network
    return env


def test_the_kernel_clocks_move_one_microsecond_per_call(counting_kernel, monkeypatch):
    from jupyter_client.manager import start_new_kernel

    for key, value in counting_kernel.items():
        monkeypatch.setenv(key, value)
    km, kc = start_new_kernel(kernel_name=KERNEL)
    try:
        code = ("import time\n"
                "steps = []\n"
                "for read in (time.perf_counter, time.process_time, time.monotonic, time.time):\n"
                # time.time() is a date: a double holds it to a quarter of a microsecond
                "    a = read(); b = read(); steps.append(abs((b - a) * 1e6 - 1) < 0.25)\n"
                "for read in (time.perf_counter_ns, time.process_time_ns, time.monotonic_ns):\n"
                "    a = read(); b = read(); steps.append(b - a)\n"
                # the library reads the clock it imported: the counting one
                "from ksched_edu import metrics\n"
                "steps.append(metrics.perf_counter is time.perf_counter)\n"
                "print(steps)")
        out = []
        reply = kc.execute_interactive(code, timeout=60, output_hook=lambda msg: out.append(msg))
        assert reply["content"]["status"] == "ok", reply["content"]
        text = "".join(m["content"].get("text", "") for m in out if m["msg_type"] == "stream")
        assert text.strip() == "[True, True, True, True, 1000, 1000, 1000, True]", text
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_chapter_04_passes_strict_nbval_when_the_clocks_count_calls(counting_kernel, tmp_path):
    work = tmp_path / "chapter"
    work.mkdir()
    shutil.copy(CHAPTER, work / CHAPTER.name)
    shutil.copy(sanitize_file(), work / "sanitize.cfg")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval", CHAPTER.name,
         "--nbval-sanitize-with", "sanitize.cfg", "--nbval-kernel-name", KERNEL, "--nbval-cell-timeout", "300"],
        cwd=work, env=counting_kernel, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout, done.stdout[-2000:]
