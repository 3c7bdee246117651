"""The openb CSV loader (errors name file, row and column) and the generated traces."""
from pathlib import Path

import pytest

from ksched_edu.gpu.sharing import sample
from ksched_edu.gpu.sharing.gpushare_utils import COUNT_NAME, MODEL_NAME, RESOURCE_NAME
from ksched_edu.gpu.sharing.openb import (NodeRow, OpenbError, PodRow, generate_trace, node_from_row, pod_from_row,
                                          read_node_csv, read_pod_csv, write_node_csv, write_pod_csv)
from ksched_edu.gpu.sharing.utils import get_pod_resource

pytestmark = pytest.mark.ch10

# The real Alibaba trace (openb) is not in the repository (data/gpu-sample is a synthetic sample
# shaped like it): the folder $KSCHED_EDU_OPENB names, else the one kept beside the repository.
OPENB = sample.trace_dir() or Path(__file__).resolve().parents[2].parent / "shared" / "data" / "openb"
NO_OPENB = (f"the Alibaba GPU trace (openb: {sample.NODE_FILE}, {sample.POD_FILE}, ...) is not at {OPENB}; "
            f"it is not in the repository: set {sample.TRACE_ENV} to the folder holding it to run this test")
NODE_HEADER = "sn,cpu_milli,memory_mib,gpu,model\n"
POD_HEADER = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time," \
             "scheduled_time\n"
GOOD_POD = "p0,4000,1024,1,500,,LS,Running,0,10,0\n"

BAD_NODES = [
    ("not a number", NODE_HEADER + "n0,32000,abc,0,\n", 2, "memory_mib", "'abc' is not a number"),
    ("negative", NODE_HEADER + "n0,32000,1024,0,\nn1,-5,1024,2,T4\n", 3, "cpu_milli", "-5 is negative"),
    ("not whole", NODE_HEADER + "n0,32000,1024,1.5,T4\n", 2, "gpu", "'1.5' is not a whole number"),
    ("empty required cell", NODE_HEADER + "n0,,1024,1,T4\n", 2, "cpu_milli", "empty, expected a whole number"),
    ("duplicate name", NODE_HEADER + "n0,1,1,0,\nn1,1,1,0,\nn0,1,1,0,\n", 4, "sn", "n0 is also the name of row 2"),
    ("missing column", "sn,cpu_milli,gpu\nn0,1,0\n", 1, "memory_mib", "missing from the header"),
]


@pytest.mark.parametrize("name,text,row,column,problem", BAD_NODES, ids=[c[0] for c in BAD_NODES])
def test_node_errors_name_file_row_and_column(tmp_path, name, text, row, column, problem):
    path = tmp_path / "nodes.csv"
    path.write_text(text)
    with pytest.raises(OpenbError) as err:
        read_node_csv(path)
    assert (err.value.file, err.value.row, err.value.column) == (str(path), row, column)
    assert str(err.value).startswith(f"{path}: row {row}, column {column}: ")
    assert problem in str(err.value)


BAD_PODS = [
    ("gpu_milli not a number", POD_HEADER + GOOD_POD + "p1,4000,1024,1,half,,LS,Running,0,10,0\n", 3, "gpu_milli",
     "'half' is not a number"),
    ("negative gpu count", POD_HEADER + "p1,4000,1024,-1,500,,LS,Running,0,10,0\n", 2, "num_gpu", "-1 is negative"),
    ("bad time", POD_HEADER + "p1,4000,1024,1,500,,LS,Running,soon,10,0\n", 2, "creation_time",
     "'soon' is not a number"),
    ("empty name", POD_HEADER + ",4000,1024,1,500,,LS,Running,0,10,0\n", 2, "name", "empty pod name"),
]


@pytest.mark.parametrize("name,text,row,column,problem", BAD_PODS, ids=[c[0] for c in BAD_PODS])
def test_pod_errors_name_file_row_and_column(tmp_path, name, text, row, column, problem):
    path = tmp_path / "pods.csv"
    path.write_text(text)
    with pytest.raises(OpenbError) as err:
        read_pod_csv(path)
    assert str(err.value) == f"{path}: row {row}, column {column}: {problem}"


def test_row_errors_without_a_column(tmp_path):
    path = tmp_path / "pods.csv"
    path.write_text(POD_HEADER + "p1,4000,1024\n")
    with pytest.raises(OpenbError, match=r"pods.csv: row 2: 3 cells, the header has 11"):
        read_pod_csv(path)
    path.write_text("")
    with pytest.raises(OpenbError, match=r"pods.csv: row 1: empty file"):
        read_pod_csv(path)
    with pytest.raises(OpenbError, match=r"nope.csv: no such file"):
        read_pod_csv(tmp_path / "nope.csv")


def test_short_pod_lists_and_pandas_style_cells(tmp_path):
    """multigpu50 has only the five resource columns; pandas writes 12000.0 and nan."""
    path = tmp_path / "pods.csv"
    path.write_text("name,cpu_milli,memory_mib,num_gpu,gpu_milli\np0,12000.0,16384,1,1000\n")
    assert read_pod_csv(path) == [PodRow("p0", 12000, 16384, 1, 1000)]
    path.write_text(POD_HEADER + "p0,4000,1024,1,500,nan,LS,Running,0,,0\n")
    assert read_pod_csv(path)[0].gpu_spec == "" and read_pod_csv(path)[0].deletion_time is None


def test_objects_as_the_simulator_builds_them():
    node = node_from_row(NodeRow("n0", 96000, 393216, 8, "G2"))
    assert node.status.allocatable[COUNT_NAME].value() == 8
    assert node.status.allocatable[RESOURCE_NAME].value() == 8000
    assert node.metadata.labels[MODEL_NAME] == "G2"
    assert COUNT_NAME not in node_from_row(NodeRow("c0", 32000, 1024, 0)).status.capacity
    # gpu_milli is clipped to 0..1000 and empty models are dropped, as pod_csv_to_yaml.py does
    pod = pod_from_row(PodRow("p0", 4000, 1024, 2, 1500, "|V100M16||V100M32"))
    assert get_pod_resource(pod).__dict__ == {"milli_cpu": 4000, "milli_gpu": 1000, "gpu_number": 2,
                                              "gpu_type": "V100M16|V100M32"}
    assert pod_from_row(PodRow("p1", 4000, 1024, 0, 500)).metadata.annotations == {}


def test_generated_traces_round_trip_and_are_seeded(tmp_path):
    nodes, pods = generate_trace(5, 20)
    assert (nodes, pods) == generate_trace(5, 20)
    assert (nodes, pods) != generate_trace(6, 20)
    write_node_csv(nodes, tmp_path / "n.csv")
    write_pod_csv(pods, tmp_path / "p.csv")
    assert read_node_csv(tmp_path / "n.csv") == nodes
    assert read_pod_csv(tmp_path / "p.csv") == pods
    asked = sum(p.num_gpu * p.gpu_milli for p in pods)
    capacity = 1000 * sum(n.gpu for n in nodes)
    assert 0.98 * capacity <= asked < 0.98 * capacity + 8000
    shares = sum(1 for p in pods if p.num_gpu == 1 and p.gpu_milli < 1000) / len(pods)
    assert 0.25 < shares < 0.5  # about 38% of openb's pods share a GPU


@pytest.mark.skipif(not OPENB.exists(), reason=NO_OPENB)
def test_the_real_trace_loads():
    assert len(read_node_csv(OPENB / "openb_node_list_all_node.csv")) == 1523
    gpu_nodes = read_node_csv(OPENB / "openb_node_list_gpu_node.csv")
    assert (len(gpu_nodes), sum(n.gpu for n in gpu_nodes)) == (1213, 6212)
    pods = read_pod_csv(OPENB / "openb_pod_list_default.csv")
    assert len(pods) == 8152
    assert len(read_pod_csv(OPENB / "openb_pod_list_multigpu50.csv")) == 9061
