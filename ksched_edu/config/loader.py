"""Port of cmd/kube-scheduler/app/options/configfile.go and pkg/scheduler/apis/config/latest/latest.go (v1.30).

:func:`load_config` is what ``kube-scheduler --config FILE`` does before it
builds anything: read the file, decode it strictly, default it, validate
it. Any problem raises :class:`ConfigError` whose ``str()`` is the message
the real scheduler prints, character for character; the file name is kept
apart on ``.file`` so that a command line can print ``<file>: <message>``.
:func:`default_config` is the configuration used when no file is given.

Deviations:
- Leader-election command-line flags (which upstream lets override the
  file) do not exist here.
"""
from __future__ import annotations

import os
from typing import Mapping, Optional

from ..anchors import plumbing, ports
from .decode import DecodeError, decode_configuration
from .defaults import set_defaults_kube_scheduler_configuration
from .types import SCHEME_GROUP_VERSION, KubeSchedulerConfiguration
from .validation import to_aggregate, validate_kube_scheduler_configuration


@plumbing("the error a refused configuration raises, carrying upstream's message")
class ConfigError(ValueError):
    """A configuration kube-scheduler would refuse; ``str()`` is upstream's message."""

    def __init__(self, message: str, file: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file

    def __str__(self) -> str:
        return self.message


@ports("cmd/kube-scheduler/app/options/configfile.go", "LoadConfigFromFile", 33, 40)
def load_config(path: str, gates: Optional[Mapping[str, bool]] = None) -> KubeSchedulerConfiguration:
    """Read, decode, default and validate a KubeSchedulerConfiguration file."""
    path = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise ConfigError(f"open {path}: no such file or directory", path) from None
    except IsADirectoryError:
        raise ConfigError(f"read {path}: is a directory", path) from None
    except PermissionError:
        raise ConfigError(f"open {path}: permission denied", path) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(f"yaml: invalid UTF-8 at byte {e.start}", path) from None
    return load_config_data(text, file=path, gates=gates)


@ports("cmd/kube-scheduler/app/options/configfile.go", "loadConfig", 42, 57)
def load_config_data(text: str, file: Optional[str] = None,
                     gates: Optional[Mapping[str, bool]] = None) -> KubeSchedulerConfiguration:
    """:func:`load_config` on the text of a file."""
    try:
        cfg = decode_configuration(text)
    except DecodeError as e:
        raise ConfigError(str(e), file) from None
    set_defaults_kube_scheduler_configuration(cfg, gates)
    convert_to_internal(cfg)
    errs = validate_kube_scheduler_configuration(cfg)
    if errs:
        raise ConfigError(str(to_aggregate(errs)), file)
    return cfg


@ports("pkg/scheduler/apis/config/v1/conversion.go", "Convert_v1_KubeSchedulerConfiguration_To_config_KubeSchedulerConfiguration", 48, 53)
def convert_to_internal(cfg: KubeSchedulerConfiguration) -> None:
    """What the v1 -> internal conversion changes once defaults are in: nil names become ""."""
    for prof in cfg.profiles:
        if prof.scheduler_name is None:
            prof.scheduler_name = ""


@ports("pkg/scheduler/apis/config/latest/latest.go", "Default", 28, 43)
def default_config(gates: Optional[Mapping[str, bool]] = None) -> KubeSchedulerConfiguration:
    """The configuration kube-scheduler runs with when no ``--config`` is given (latest.Default)."""
    cfg = KubeSchedulerConfiguration()
    set_defaults_kube_scheduler_configuration(cfg, gates)
    convert_to_internal(cfg)
    cfg.api_version = SCHEME_GROUP_VERSION
    return cfg
