"""The course in the browser: what the Pyodide kernel of the static site does when it starts.

Not a port. The static site (``bash .ci/lite-build``) serves ksched_edu and every
pure-Python package it needs itself; numpy, pandas and matplotlib, compiled for
WebAssembly, come from Pyodide's CDN, so the figures and tables need the internet and
nothing else does. The site names ``ksched_edu/browser_start.py`` as the kernel's
``PYTHONSTARTUP``, which calls :func:`start`:

1. The figures' and tables' libraries start loading in the background, each download
   bounded: a request with no answer within :data:`ANSWER_TIMEOUT_S`, or whose bytes stop
   for :data:`STALL_TIMEOUT_S`, is given up (offline that is at once; on a network that
   drops packets, within those seconds), and the whole load within :data:`TOTAL_TIMEOUT_S`.
2. The first cell waits for that and prints one line: figures and tables are on, or off
   and why. No cell asks the CDN again once they are off.
3. When they are off, a cell's ``import pandas as pd`` (or ``from matplotlib.figure import
   Figure``) binds a stand-in (:func:`missing`) instead of failing. A statement of a cell
   that then needs the library (``pd.DataFrame(...)``, or a figure drawn by
   ``ksched_edu.viz``), or a name that such a skipped statement would have made, is
   skipped and the cell goes on with its next statement; the cell ends with one line
   saying what it skipped instead of a traceback, and counts as run, so Run All reaches
   the last cell. A name that a skipped statement would have rebound, or changed in place
   (``rows.append(...)``, ``table[key] = ...``), is removed rather than left with an earlier
   or half-made value.

Outside the browser (``sys.platform`` is not ``"emscripten"``) :func:`start` does nothing.
"""
from __future__ import annotations

import ast
import asyncio
import dis
import sys
import time
from typing import Any, Optional

# What the figures and tables need from the CDN (with their dependencies, from Pyodide's lock).
FIGURE_PACKAGES = ("numpy", "pandas", "matplotlib")
ANSWER_TIMEOUT_S = 10.0  # a download whose response has not begun by then is given up
STALL_TIMEOUT_S = 10.0  # ... and one whose bytes stop coming for that long
TOTAL_TIMEOUT_S = 120.0  # the whole load (about 25 MB), on a slow network that still moves
PREFIX = "ksched_edu:"
# The modules of those packages and of their compiled dependencies (all from the CDN), used when
# the lock cannot be read.
FIGURE_IMPORTS = frozenset({"numpy", "pandas", "matplotlib", "mpl_toolkits", "pylab", "PIL", "contourpy",
                            "kiwisolver"})


def in_browser() -> bool:
    """True in the Pyodide kernel (Python compiled to WebAssembly)."""
    return sys.platform == "emscripten"


def _names(packages: list[str]) -> str:
    """``numpy, pandas and matplotlib``."""
    return ", ".join(packages[:-1]) + " and " + packages[-1] if len(packages) > 1 else "".join(packages)


class _GaveUp(Exception):
    """A download of the figures' libraries was given up; the message says why, in a few words."""


class FigureLibraries:
    """Loads numpy, pandas and matplotlib once, bounded in time; says whether figures and tables are on."""

    def __init__(self) -> None:
        self.task: Optional[asyncio.Future] = None
        self.on: Optional[bool] = None  # None while loading
        self.line = ""  # the line the first cell prints
        self.reason = ""  # why they are off, in a few words
        self.source = "Pyodide's CDN"  # the host they come from
        self.missing_imports: frozenset[str] = FIGURE_IMPORTS  # the modules a cell misses when they are off
        self.announced = False
        self.seconds: Optional[float] = None  # how long the load took, once it ended
        self.unmade_names: set[str] = set()  # the names the skipped statements would have bound
        self.skipping: Optional[str] = None  # what the running statement needs, once it is skipped
        self.cell_skipped: list[str] = []  # what the running cell's skipped statements needed
        # the running cell's top-level statements: (first line, last line, the names each changes in place)
        self.cell_statements: list[tuple[int, int, set[str]]] = []

    # --- the load ------------------------------------------------------------------------------

    def begin(self) -> None:
        self.task = asyncio.ensure_future(self._load())

    async def _load(self) -> None:
        began = time.monotonic()
        try:
            await asyncio.wait_for(self._fetch_and_install(), TOTAL_TIMEOUT_S)
        except _GaveUp as err:
            self._off(str(err))
        except asyncio.TimeoutError:
            self._off(f"not loaded within {TOTAL_TIMEOUT_S:g} s: a slow network?")
        except Exception as err:  # noqa: BLE001 - any failure leaves the rest of the course working
            self._off(f"{type(err).__name__}: {err}".strip())
        else:
            self.on = True
            self.line = (f"{PREFIX} figures and tables are on ({_names(list(FIGURE_PACKAGES))} "
                         f"loaded from {self.source})")
        finally:
            self.seconds = time.monotonic() - began

    def _off(self, reason: str) -> None:
        self.on, self.reason = False, reason
        self.line = (f"{PREFIX} figures and tables are off: {_names(list(FIGURE_PACKAGES))} could not be "
                     f"loaded from {self.source} ({reason}); everything else works")

    async def _fetch_and_install(self) -> None:
        import js
        import pyodide_js
        from pyodide.ffi import create_proxy, to_js

        lock = _lock_packages()
        loaded = pyodide_js.loadedPackages.to_py()
        needed = _closure(lock, FIGURE_PACKAGES)
        base = js.URL.new(pyodide_js.lockfileBaseUrl or ".", js.location.href).href
        own_host = js.location.host
        remote = {}
        for name in sorted(needed):
            url = js.URL.new(lock[name]["file_name"], base)
            if url.host != own_host:
                remote[name] = url.href
                self.source = url.host
        self.missing_imports = frozenset(i for n in remote for i in lock[n].get("imports", ())) or FIGURE_IMPORTS
        remote = {name: url for name, url in remote.items() if name not in loaded}
        # Fetch what lives elsewhere first, each bounded: Pyodide's own download cannot be given up,
        # and would hold its package lock for as long as the network keeps it waiting. Once these
        # arrived, loadPackage below reads them from the browser's HTTP cache.
        await _fetch_all(list(remote.values()))

        errors: list[str] = []
        on_error = create_proxy(lambda msg: errors.append(str(msg)))
        on_message = create_proxy(lambda msg: None)
        try:
            options = to_js({"messageCallback": on_message, "errorCallback": on_error},
                            dict_converter=js.Object.fromEntries)
            await pyodide_js.loadPackage(to_js(list(FIGURE_PACKAGES)), options)
        finally:
            on_error.destroy()
            on_message.destroy()
        loaded = pyodide_js.loadedPackages.to_py()
        absent = [n for n in FIGURE_PACKAGES if n not in loaded]
        if absent:
            detail = errors[-1].splitlines()[0] if errors else "Pyodide did not install them"
            raise _GaveUp(f"{_names(absent)} not installed: {detail}")

    # --- before each cell ----------------------------------------------------------------------

    async def wait_and_announce(self) -> None:
        """Wait for the load (it is bounded), then print its line once."""
        if self.task is not None and not self.task.done():
            try:
                await asyncio.shield(self.task)
            except Exception:  # noqa: BLE001 - _load never raises; a cancelled wait changes nothing
                pass
        if self.on is None:
            self._off("the load did not finish")
        if self.on is False:
            _stand_in_for_missing_libraries(self)
        if not self.announced:
            self.announced = True
            print(self.line, flush=True)

    def skipped_line(self) -> str:
        """The line a cell ends with when statements of it were skipped."""
        count = len(self.cell_skipped)
        modules = sorted({n for n in self.cell_skipped if n in self.missing_imports})
        names = sorted({n for n in self.cell_skipped if n not in self.missing_imports})
        needs = [_names(modules)] if modules else []
        if names:
            needs.append(f"{_names(names)} (left unmade by a statement skipped before)")
        what = "1 statement of this cell that needs" if count == 1 else f"{count} statements of this cell that need"
        return (f"{PREFIX} skipped {what} {' and '.join(needs)}; figures and tables are off "
                f"(see the first cell); the notebook goes on")


FIGURES = FigureLibraries()
_started = False
_LOCK: dict = {}


def _lock_packages() -> dict:
    """Pyodide's lock (the site's ``pyodide-lock.json``): its packages by name, read once."""
    if not _LOCK:
        import pyodide_js

        _LOCK.update(pyodide_js.lockfile.packages.to_py())
    return _LOCK


def _closure(lock: dict, roots: tuple[str, ...]) -> set[str]:
    """The lock's packages ``roots`` need, themselves included."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen or name not in lock:
            continue
        seen.add(name)
        todo += list(lock[name].get("depends", ()))
    return seen


async def _fetch_all(urls: list[str]) -> None:
    """Fetch every URL to its end; on the first failure, give up the others and raise it."""
    if not urls:
        return
    controllers = [_new_abort_controller() for _ in urls]
    tasks = [asyncio.ensure_future(_fetch_one(url, c)) for url, c in zip(urls, controllers)]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        failures = [t.exception() for t in tasks if t in done and t.exception() is not None]
        failure = failures[0] if failures else None
    finally:  # a failure, or the whole load given up: end the other downloads at once
        for task, controller in zip(tasks, controllers):
            if not task.done():
                controller.abort()
                task.add_done_callback(lambda t: t.cancelled() or t.exception())
    if failure is not None:
        raise failure


def _new_abort_controller() -> Any:
    import js

    return js.AbortController.new()


async def _fetch_one(url: str, controller: Any) -> None:
    """One download with the browser's fetch, given up when it stays silent too long."""
    import js
    from pyodide.ffi import JsException, to_js

    loop = asyncio.get_event_loop()
    why = {"text": ""}

    def give_up(text: str) -> None:
        why["text"] = text
        controller.abort()

    timer = loop.call_later(ANSWER_TIMEOUT_S, give_up, f"no answer within {ANSWER_TIMEOUT_S:g} s: "
                                                       f"a slow or dropping network?")
    try:
        options = to_js({"signal": controller.signal}, dict_converter=js.Object.fromEntries)
        try:
            response = await js.fetch(url, options)
        except JsException as err:
            raise _GaveUp(why["text"] or _network_reason(err)) from None
        if not response.ok:
            raise _GaveUp(f"HTTP {response.status} for {url.rsplit('/', 1)[-1]}")
        reader = response.body.getReader()
        while True:
            timer.cancel()
            timer = loop.call_later(STALL_TIMEOUT_S, give_up, f"the download stalled for {STALL_TIMEOUT_S:g} s: "
                                                              f"a dropping network?")
            try:
                chunk = await reader.read()
            except JsException as err:
                raise _GaveUp(why["text"] or _network_reason(err)) from None
            if chunk.done:
                return
    finally:
        timer.cancel()


def _network_reason(err: Exception) -> str:
    text = str(err)
    if "abort" in text.lower():
        return "given up"
    return "no network: offline?"


# --- when figures and tables are off ---------------------------------------------------------

class Missing:
    """What a cell's import of a library that could not be loaded binds: using it raises the
    ``ModuleNotFoundError`` the import would have raised (the kernel turns that into one line)."""

    def __init__(self, module: str, what: str) -> None:
        object.__setattr__(self, "_module", module)
        object.__setattr__(self, "_what", what)

    def _fail(self) -> None:
        raise ModuleNotFoundError(f"No module named {self._module!r} (figures and tables are off)",
                                  name=self._module)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_"):  # what IPython's display and completion ask every object
            raise AttributeError(attr)
        self._fail()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self._fail()

    def __getitem__(self, key: Any) -> Any:
        self._fail()

    def __iter__(self) -> Any:
        self._fail()

    def __mro_entries__(self, bases: tuple) -> tuple:
        self._fail()
        return ()

    def __repr__(self) -> str:
        return f"<{self._what}: not loaded, figures and tables are off>"


def missing(module: str, what: str) -> Missing:
    """The stand-in a rewritten import binds (see :class:`_ImportsOfMissing`)."""
    return Missing(module, what)


def _stored_names(code: Any) -> set[str]:
    """The names a compiled top-level statement of a cell binds (or deletes) in the namespace."""
    try:
        return {i.argval for i in dis.get_instructions(code)
                if i.opname in ("STORE_NAME", "STORE_GLOBAL", "DELETE_NAME", "DELETE_GLOBAL")}
    except Exception:  # noqa: BLE001 - not a code object: nothing known
        return set()


# Methods that change their object in place (a skipped statement calling one leaves it half-made).
MUTATORS = frozenset({"append", "extend", "insert", "update", "add", "setdefault", "pop", "popitem", "remove",
                      "discard", "clear", "sort", "reverse"})


def _changed_in_place(statement: ast.stmt) -> set[str]:
    """The names whose objects a statement changes in place: ``x[k] = v``, ``x.a = v``, ``x.append(v)``."""
    names: set[str] = set()
    for node in ast.walk(statement):
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            base = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            base = node.func.value
        else:
            continue
        while isinstance(base, (ast.Subscript, ast.Attribute)):
            base = base.value
        if isinstance(base, ast.Name):
            names.add(base.id)
    return names


class _ImportsOfMissing(ast.NodeTransformer):
    """Rewrites a cell's imports of the missing libraries into stand-ins."""

    def __init__(self, figures: FigureLibraries) -> None:
        self.figures = figures

    def _stand_in(self, node: ast.stmt, target: str, module: str, what: str) -> ast.stmt:
        stmt = ast.parse(f"{target} = __import__({__name__!r}, fromlist=['missing'])"
                         f".missing({module!r}, {what!r})").body[0]
        return ast.copy_location(stmt, node)

    def visit_Module(self, node: ast.Module) -> ast.Module:
        self.generic_visit(node)
        self.figures.cell_statements = [(stmt.lineno, getattr(stmt, "end_lineno", None) or stmt.lineno,
                                         _changed_in_place(stmt)) for stmt in node.body]
        return ast.fix_missing_locations(node)

    def visit_Import(self, node: ast.Import) -> Any:
        keep, stand_ins = [], []
        for alias in node.names:
            top = alias.name.split(".")[0]
            if top in self.figures.missing_imports:
                target = alias.asname or top
                stand_ins.append(self._stand_in(node, target, top, alias.name if alias.asname else top))
            else:
                keep.append(alias)
        if not stand_ins:
            return node
        return ([ast.copy_location(ast.Import(names=keep), node)] if keep else []) + stand_ins

    def visit_ImportFrom(self, node: ast.ImportFrom) -> Any:
        top = (node.module or "").split(".")[0]
        if node.level or top not in self.figures.missing_imports or any(a.name == "*" for a in node.names):
            return node
        return [self._stand_in(node, a.asname or a.name, top, f"{node.module}.{a.name}") for a in node.names]


def _changed_by(code: Any, statements: list[tuple[int, int, set[str]]]) -> set[str]:
    """The names the cell's statement compiled into ``code`` changes in place."""
    try:
        lines = {line for *_, line in code.co_lines() if line}
    except Exception:  # noqa: BLE001 - not a code object: nothing known
        return set()
    changed: set[str] = set()
    for first, last, names in statements:
        if any(first <= line <= last for line in lines):
            changed |= names
    return changed


def _stand_in_for_missing_libraries(figures: FigureLibraries, shell: Any = None) -> None:
    """Imports of the missing libraries bind stand-ins; a statement that needs one of them, or a name a
    skipped statement would have made, is skipped, and the cell goes on; it ends with one line."""
    if shell is None:
        from IPython import get_ipython

        shell = get_ipython()
    if shell is None or getattr(shell, "_ksched_edu_stand_ins", False):
        return

    def handler(shell: Any, etype: type, value: BaseException, tb: Any, tb_offset: Optional[int] = None) -> None:
        name = getattr(value, "name", None) or ""
        if isinstance(value, ModuleNotFoundError) and name.split(".")[0] in figures.missing_imports:
            figures.skipping = name.split(".")[0]
        elif isinstance(value, NameError) and name in figures.unmade_names:
            figures.skipping = name
        else:
            shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
        return None

    run_code = shell.run_code  # IPython runs a cell's top-level statements one by one through it

    async def run_statement(code_obj: Any, result: Any = None, *, async_: bool = False) -> bool:
        stored = _stored_names(code_obj) | _changed_by(code_obj, figures.cell_statements)
        before = {n: shell.user_ns[n] for n in stored if n in shell.user_ns}
        figures.skipping = None
        failed = await run_code(code_obj, result, async_=async_)
        if not (failed and figures.skipping):
            return failed
        # What the statement would have bound and did not: gone, so that a later statement that needs it
        # is skipped too, instead of running on with an earlier cell's value.
        for unmade in stored:
            if unmade in before and shell.user_ns.get(unmade) is before[unmade]:
                del shell.user_ns[unmade]
        figures.unmade_names |= stored
        figures.cell_skipped.append(figures.skipping)
        figures.skipping = None
        if result is not None:
            result.error_in_exec = None
        return False  # on with the cell's next statement

    def post_run_cell(*_: Any) -> None:
        if figures.cell_skipped:
            print(figures.skipped_line(), flush=True)
            figures.cell_skipped = []

    shell.ast_transformers.append(_ImportsOfMissing(figures))
    shell.set_custom_exc((ModuleNotFoundError, NameError), handler)
    shell.run_code = run_statement
    shell.events.register("post_run_cell", post_run_cell)
    shell._ksched_edu_stand_ins = True


# --- hooks into the kernel ---------------------------------------------------------------------


def _wrap_package_loading(figures: FigureLibraries) -> bool:
    """Make the kernel's per-cell package loading wait for the figures first, and keep it off the CDN
    once they are off (its own download could wait on a dropping network for minutes)."""
    kernel = sys.modules.get("pyodide_kernel.kernel")
    original = getattr(kernel, "_load_packages_from_imports", None)
    if original is None:
        return False

    async def load_packages_from_imports(code: str) -> Any:
        await figures.wait_and_announce()
        if figures.on:
            return await original(code)
        return await _load_local_packages(code)

    kernel._load_packages_from_imports = load_packages_from_imports
    return True


async def _load_local_packages(code: str) -> None:
    """What ``loadPackagesFromImports`` does, for the packages the site serves itself only."""
    try:
        import js
        import pyodide_js
        from pyodide.code import find_imports
        from pyodide.ffi import to_js

        imports = set(find_imports(code))
        if not imports:
            return
        lock = _lock_packages()
        loaded = pyodide_js.loadedPackages.to_py()
        own_host = js.location.host
        base = js.URL.new(pyodide_js.lockfileBaseUrl or ".", js.location.href).href
        wanted = [name for name, entry in lock.items()
                  if name not in loaded and imports & set(entry.get("imports", ()))
                  and js.URL.new(entry["file_name"], base).host == own_host]
        if wanted:
            await pyodide_js.loadPackage(to_js(wanted))
    except Exception:  # noqa: BLE001 - a missing package shows as the cell's own ImportError
        pass


def _announce_before_cells(figures: FigureLibraries) -> None:
    """Where the kernel has no per-cell loading hook: print the line before the first cell, if known."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return

    def pre_run_cell(*_: Any) -> None:
        if figures.on is False:
            _stand_in_for_missing_libraries(figures)
        if figures.on is not None and not figures.announced:
            figures.announced = True
            print(figures.line, flush=True)

    shell.events.register("pre_run_cell", pre_run_cell)


def start() -> None:
    """At the kernel's start, in the browser only: begin loading the figures' libraries, hook the cells."""
    global _started
    if not in_browser() or _started:
        return
    _started = True
    try:
        FIGURES.begin()
        if not _wrap_package_loading(FIGURES):
            _announce_before_cells(FIGURES)
    except Exception as err:  # noqa: BLE001 - the kernel must start whatever happens here
        print(f"{PREFIX} the browser kernel's start failed ({type(err).__name__}: {err}); "
              f"figures and tables may be off", file=sys.stderr)
