"""Exercise checks for the course chapters.

Each chapter with exercises has one module ``chNN.py`` in this package holding
its ``check_<name>`` functions (see :mod:`ksched_edu.exercises.core` for the
verdict convention). This package finds every ``ch*.py`` module and
re-exports its ``check_*`` functions, so a notebook calls
``ksched_edu.exercises.check_<name>(...)`` without knowing the chapter module.
Modules load lazily, on the first attribute lookup, so ``import ksched_edu``
stays light.
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Callable

from ksched_edu.exercises.core import failed, passed

__all__ = ["passed", "failed", "chapter_modules", "all_checks"]

_CHECKS: dict[str, Callable[..., bool]] | None = None


def chapter_modules() -> list[str]:
    """Names of the chapter modules (``ch00``, ``ch01``, ...) in this package, sorted."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name.startswith("ch"))


def all_checks(refresh: bool = False) -> dict[str, Callable[..., bool]]:
    """Every ``check_*`` function of every chapter module, by name."""
    global _CHECKS
    if _CHECKS is None or refresh:
        found: dict[str, Callable[..., bool]] = {}
        for name in chapter_modules():
            module = importlib.import_module(f"{__name__}.{name}")
            for attr in dir(module):
                if attr.startswith("check_"):
                    found[attr] = getattr(module, attr)
        _CHECKS = found
    return _CHECKS


def __getattr__(name: str) -> Any:
    if name.startswith("check_"):
        checks = all_checks()
        if name not in checks:  # a chapter module added since the first lookup
            checks = all_checks(refresh=True)
        if name in checks:
            return checks[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(all_checks()))
