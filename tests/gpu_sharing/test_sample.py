"""The openb-shaped sample in data/gpu-sample: the generator's output for its seed, shaped like the trace."""
from collections import Counter
from pathlib import Path

import pytest

from ksched_edu.gpu.sharing import sample
from ksched_edu.gpu.sharing.openb import POD_COLUMNS, load_nodes, load_pods

pytestmark = pytest.mark.ch10

# The real Alibaba trace (openb) is not in the repository (data/gpu-sample is a synthetic sample
# shaped like it): the folder $KSCHED_EDU_OPENB names, else the one kept beside the repository.
OPENB = sample.trace_dir() or Path(__file__).resolve().parents[2].parent / "shared" / "data" / "openb"
NO_OPENB = (f"the Alibaba GPU trace (openb: {sample.NODE_FILE}, {sample.POD_FILE}, ...) is not at {OPENB}; "
            f"it is not in the repository: set {sample.TRACE_ENV} to the folder holding it to run this test")
FILES = (sample.SAMPLE_NODE_FILE, sample.SAMPLE_POD_FILE, "README.md")


@pytest.mark.parametrize("name", FILES)
def test_the_committed_sample_is_the_generators_output_for_its_seed(tmp_path, name):
    assert sample.main(["--out", str(tmp_path), "--seed", str(sample.SEED), "--nodes", str(sample.NUM_NODES)]) == 0
    committed = (sample.SAMPLE_DIR / name).read_bytes()
    assert (tmp_path / name).read_bytes() == committed, f"regenerate: python -m ksched_edu.gpu.sharing.sample " \
                                                        f"--out data/gpu-sample --seed {sample.SEED}"


def test_the_sample_is_small_and_says_it_is_synthetic():
    assert sum((sample.SAMPLE_DIR / name).stat().st_size for name in FILES) < 100_000
    readme = (sample.SAMPLE_DIR / "README.md").read_text()
    assert "Synthetic, not the trace" in readme and f"--seed {sample.SEED}" in readme


def test_the_generator_is_deterministic_and_the_seed_matters():
    assert sample.generate_sample(7) == sample.generate_sample(7)
    assert sample.generate_sample(7)[1] != sample.generate_sample(8)[1]


def test_the_sample_loads_with_the_trace_loader_and_has_its_columns():
    assert (sample.SAMPLE_DIR / sample.SAMPLE_POD_FILE).read_text().splitlines()[0] == ",".join(POD_COLUMNS)
    nodes = load_nodes(sample.SAMPLE_DIR / sample.SAMPLE_NODE_FILE)
    pods = load_pods(sample.SAMPLE_DIR / sample.SAMPLE_POD_FILE)
    assert len(nodes) == sample.NUM_NODES and len(pods) > 500


@pytest.mark.parametrize("num_nodes", [1, 7, 100, 1213])
def test_node_counts_follow_the_trace_mix(num_nodes):
    counts = sample.node_counts(num_nodes)
    assert sum(c for *_, c in counts) == num_nodes
    if num_nodes == 1213:  # the trace's own size gives the trace's own counts
        assert [c for *_, c in counts] == [s[0] for s in sample.NODE_SHAPES]


def test_the_pods_resemble_the_trace():
    nodes, pods = sample.read_sample()
    kinds = Counter("none" if p.num_gpu == 0 else "share" if p.gpu_milli < 1000 else "whole" for p in pods)
    assert 0.30 < kinds["share"] / len(pods) < 0.45  # the trace: 37.8%
    assert 0.40 < kinds["whole"] / len(pods) < 0.55  # the trace: 48.9% (one or several GPUs)
    asked = sum(p.num_gpu * p.gpu_milli for p in pods) / (1000 * sum(n.gpu for n in nodes))
    assert sample.GPU_LOAD <= asked < sample.GPU_LOAD + 0.02
    assert Counter(n.model for n in nodes).most_common(2) == [("G2", 45), ("T4", 33)]
    known = {s[1:] for s in sample.POD_SHAPES}
    assert all((p.num_gpu, p.gpu_milli, p.cpu_milli, p.memory_mib) in known for p in pods)


def test_trace_dir_reads_the_environment(tmp_path):
    assert sample.trace_dir({}) is None
    assert sample.trace_dir({sample.TRACE_ENV: str(tmp_path)}) is None  # no trace files there
    assert sample.trace_dir({sample.TRACE_ENV: str(sample.SAMPLE_DIR)}) is None  # the sample is not the trace
    for name in (sample.NODE_FILE, sample.POD_FILE):
        (tmp_path / name).write_text("")
    assert sample.trace_dir({sample.TRACE_ENV: str(tmp_path)}) == tmp_path


@pytest.mark.skipif(not (OPENB / sample.POD_FILE).exists(), reason=NO_OPENB)
def test_the_committed_statistics_are_the_traces():
    stats = sample.trace_statistics(OPENB)
    for name, value in stats.items():
        assert getattr(sample, name) == value, name
