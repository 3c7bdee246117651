import nbformat
from .test_stepper_browser import test_cycle_stepper_steps_forward_in_jupyterlab as real

SRC = r'''
import ipywidgets as w
points = ["PreFilter", "Filter", "PostFilter", "PreScore", "Score"]
i = [0]
html = w.HTML()
def render():
    p = points[i[0]]
    html.value = (f'<div><span class="ksched-current" data-point="{p}">{p}</span>'
                  f'<table class="ksched-table"><tr><td>{p}</td><td>{i[0]}</td></tr></table></div>')
render()
b = w.Button(description="Next ▶")
def nxt(_):
    i[0] = min(i[0] + 1, len(points) - 1); render()
b.on_click(nxt)
w.VBox([b, html])
'''

def test_scratch(lab_server, browser_page, tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# scratch"), nbformat.v4.new_code_cell(SRC)]
    nbformat.write(nb, str(lab_server.root_dir / "04_schedule_one.ipynb"))
    real(lab_server, browser_page, tmp_path)
