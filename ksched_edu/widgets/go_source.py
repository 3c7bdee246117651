"""Where the Go lines of an anchor come from, at run time: never from the project itself.

The project ships no upstream source. For an anchor (``ksched_edu.upstream(obj)``)
the Go lines are looked for, in this order:

1. a local checkout named by an environment variable: for any anchored repository
   ``KSCHED_EDU_SRC_<OWNER>_<REPO>`` (upper case, every character that is not a letter
   or a digit an underscore: ``KSCHED_EDU_SRC_HKUST_ADSL_KUBERNETES_SCHEDULER_SIMULATOR``
   for the FGD paper's simulator), and the two short names ``KSCHED_EDU_K8S_SRC`` (a
   kubernetes/kubernetes working tree, ideally at tag v1.30.4) and
   ``KSCHED_EDU_SCHEDULER_PLUGINS_SRC`` (kubernetes-sigs/scheduler-plugins);
2. the cache: ``$KSCHED_EDU_CACHE_DIR``, else ``$XDG_CACHE_HOME/ksched_edu``, else
   ``~/.cache/ksched_edu`` (``%LOCALAPPDATA%`` on Windows, ``~/Library/Caches`` on
   macOS), under ``go/<owner>/<repo>/<ref>/<path>``;
3. the anchor's raw file (``raw.githubusercontent.com`` at the pinned tag or
   commit), fetched once with a short timeout and written to the cache. Set
   ``KSCHED_EDU_OFFLINE=1`` to skip this step. In the browser (the static site's
   Pyodide kernel, where Python has no TLS of its own) the browser fetches it;
4. none of these: no lines, and one line saying why, with the permalink.

A checkout at another version may hold other lines: when the first lines of
the range do not name the anchored Go identifier, the status says so.
"""
from __future__ import annotations

import os
import re
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..anchors import K8S, SCHEDULER_PLUGINS, Anchor
from ..i18n import _
from ._html import sentences

# The short names of the two repositories most anchors name; every repository also has its long one.
CHECKOUT_VARS = {K8S: "KSCHED_EDU_K8S_SRC", SCHEDULER_PLUGINS: "KSCHED_EDU_SCHEDULER_PLUGINS_SRC"}
FETCH_TIMEOUT_SECONDS = 5.0

# A fetch that failed is not tried again in this process (one slow timeout, not one per view).
_FAILED_FETCHES: dict[str, str] = {}


@dataclass(frozen=True)
class GoSource:
    """The Go lines of one anchor (None when unavailable) and one line on where they came from."""

    lines: Optional[list[str]]
    status: str
    origin: str  # "checkout" | "cache" | "download" | "unavailable"


def cache_dir() -> Path:
    """The per-user cache directory of the project (not created here)."""
    if os.environ.get("KSCHED_EDU_CACHE_DIR"):
        return Path(os.environ["KSCHED_EDU_CACHE_DIR"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "ksched_edu"
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "ksched_edu" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "ksched_edu"
    return Path.home() / ".cache" / "ksched_edu"


def cached_file(anchor: Anchor) -> Path:
    """Where the anchor's whole Go file is kept once fetched."""
    return cache_dir() / "go" / anchor.repo / anchor.ref / anchor.path


def checkout_var(repo: str) -> str:
    """``KSCHED_EDU_SRC_<OWNER>_<REPO>``: the variable naming a local checkout of ``repo``."""
    return "KSCHED_EDU_SRC_" + re.sub(r"[^A-Z0-9]", "_", repo.upper())


def _checkout(repo: str) -> tuple[str, str]:
    """(the variable, the checkout it names) for ``repo``: its short name when that is set,
    else its long one (``var`` is the name to suggest when neither is)."""
    for var in (CHECKOUT_VARS.get(repo), checkout_var(repo)):
        if var and os.environ.get(var):
            return var, os.environ[var]
    return CHECKOUT_VARS.get(repo, checkout_var(repo)), ""


def _offline() -> bool:
    return os.environ.get("KSCHED_EDU_OFFLINE", "").strip().lower() not in ("", "0", "false", "no")


def _where_else(anchor: Anchor) -> str:
    var, _root = _checkout(anchor.repo)
    return _("Set {var} to a local checkout, or read it at {permalink}").format(var=var, permalink=anchor.permalink)


def _slice(text: str, anchor: Anchor) -> list[str]:
    return text.splitlines()[anchor.start - 1:anchor.end]


def _short_go_name(go: str) -> str:
    """``(*Scheduler).schedulePod`` -> ``schedulePod``; ``selectHost`` -> ``selectHost``."""
    return go.rsplit(".", 1)[-1]


def _version_warning(lines: list[str], anchor: Anchor) -> str:
    head = "\n".join(lines[:4])
    if lines and _short_go_name(anchor.go) not in head:
        return _("Lines {start}-{end} there do not name {go}: is the checkout at {ref}?").format(
            start=anchor.start, end=anchor.end, go=anchor.go, ref=anchor.ref)
    return ""


def _from_checkout(anchor: Anchor) -> Optional[GoSource]:
    var, root = _checkout(anchor.repo)
    if not root:
        return None
    path = Path(root) / anchor.path
    if not path.is_file():
        return None
    lines = _slice(path.read_text(encoding="utf-8", errors="replace"), anchor)
    status = _("Read from {var} ({path}).").format(var=var, path=path)
    warning = _version_warning(lines, anchor)
    if warning:
        status = sentences(status, warning)
    return GoSource(lines, status, "checkout")


def _from_cache(anchor: Anchor) -> Optional[GoSource]:
    path = cached_file(anchor)
    if not path.is_file():
        return None
    lines = _slice(path.read_text(encoding="utf-8", errors="replace"), anchor)
    return GoSource(lines, _("Read from the cache ({path}).").format(path=path), "cache")


def _in_browser() -> bool:
    return sys.platform == "emscripten"


def _browser_fetch(url: str, timeout: float) -> str:
    """The text at ``url``, fetched by the browser itself (a synchronous request, allowed in the
    kernel's web worker); OSError with a short reason when it cannot be had."""
    try:
        import js
        from pyodide.ffi import JsException

        request = js.XMLHttpRequest.new()
        request.open("GET", url, False)
        try:
            request.timeout = int(timeout * 1000)  # allowed for a synchronous request in a worker only
        except JsException:
            pass
        request.send(None)
    except Exception as err:  # noqa: BLE001 - a JsException, or a kernel without XMLHttpRequest
        text = f"{getattr(err, 'name', '')} {err}"
        if "Timeout" in text or "timed out" in text:
            raise OSError(_("no answer within {seconds} s").format(seconds=f"{timeout:g}")) from None
        if "NetworkError" in text:
            raise OSError(_("the browser could not reach it: offline?")) from None
        raise OSError(f"{type(err).__name__}: {err}".splitlines()[0]) from None
    if request.status != 200:
        raise OSError(f"HTTP {request.status}")
    return str(request.responseText)


def _download(anchor: Anchor) -> GoSource:
    url = anchor.raw_url
    if url not in _FAILED_FETCHES:
        try:
            if _in_browser():
                text = _browser_fetch(url, FETCH_TIMEOUT_SECONDS)
            else:
                with urllib.request.urlopen(url, timeout=FETCH_TIMEOUT_SECONDS) as response:  # noqa: S310 (https)
                    text = response.read().decode("utf-8", errors="replace")
        except (urllib.error.URLError, OSError, ValueError) as err:
            _FAILED_FETCHES[url] = str(getattr(err, "reason", err))
    if url in _FAILED_FETCHES:
        failed = _("Go source not shown: {url} could not be fetched ({reason}).").format(
            url=url, reason=_FAILED_FETCHES[url])
        return GoSource(None, sentences(failed, _where_else(anchor)), "unavailable")
    path = cached_file(anchor)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        where = _("Fetched from {url}; cached in {path}.").format(url=url, path=path)
    except OSError as err:
        where = _("Fetched from {url} (not cached: {reason}).").format(url=url, reason=err.strerror or err)
    return GoSource(_slice(text, anchor), where, "download")


def go_source(anchor: Anchor) -> GoSource:
    """The Go lines of ``anchor``: from a checkout, the cache, a download, or none (with why)."""
    for source in (_from_checkout, _from_cache):
        found = source(anchor)
        if found is not None:
            return found
    if _offline():
        found = GoSource(None, sentences(_("Go source not shown: KSCHED_EDU_OFFLINE is set and the file is not in "
                                           "the cache."), _where_else(anchor)), "unavailable")
    else:
        found = _download(anchor)
    return _with_checkout_note(found, anchor)


def _with_checkout_note(found: GoSource, anchor: Anchor) -> GoSource:
    """Say so when a checkout was named but lacks the file (a wrong path is a common slip)."""
    var, root = _checkout(anchor.repo)
    if not root:
        return found
    missing = _("{var}={root} has no {path}.").format(var=var, root=root, path=anchor.path)
    return GoSource(found.lines, sentences(missing, found.status), found.origin)
