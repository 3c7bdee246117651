"""Port of pkg/scheduler/framework/plugins/volumebinding/assume_cache.go (v1.30).

The volume binder's caches of PersistentVolumes and PersistentVolumeClaims.
Each object is stored twice: as the informer last delivered it (the API
object) and as the scheduler last assumed it (a PV it chose for a claim, a
claim it gave a selected node). ``assume`` replaces the latter, ``restore``
takes it back, and an informer event overrides both, but only when its
``metadata.resourceVersion`` is newer.

The resourceVersion is parsed as a Go int64: an object whose resourceVersion
is empty (client-go's fake clientset never sets one) cannot be assumed
(``error parsing ResourceVersion "" for v1.PersistentVolume "pv": ...``), and
an informer update of a stored object is then dropped.

Deviations:
- The informer is the API server's synchronous watch (when the object lister
  has one) plus the objects listed when the cache is built.
- List keeps the informer's creation order where Go walks an index map.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from ....anchors import plumbing, ports

PV_DESCRIPTION = "v1.PersistentVolume"
PVC_DESCRIPTION = "v1.PersistentVolumeClaim"

_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


@ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "errNotFound", 62, 69)
class AssumeCacheNotFoundError(LookupError):
    """``could not find v1.PersistentVolume "pv1"``."""

    def __init__(self, type_name: str, object_name: str) -> None:
        super().__init__(f'could not find {type_name} "{object_name}"')
        self.type_name, self.object_name = type_name, object_name

    def __str__(self) -> str:
        return self.args[0]


@ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "objInfo", 108, 117)
@dataclass
class ObjInfo:
    name: str
    latest_obj: Any
    api_obj: Any


@plumbing("cache.MetaNamespaceKeyFunc")
def meta_namespace_key(obj: Any) -> str:
    """``namespace/name``, or ``name`` for a cluster-scoped object."""
    ns = obj.metadata.namespace
    return f"{ns}/{obj.metadata.name}" if ns else obj.metadata.name


@plumbing("Go's strconv.ParseInt(s, 10, 64)")
def _parse_int64(text: str) -> int:
    """Go's strconv.ParseInt(text, 10, 64); ValueError with Go's text on failure."""
    body = text[1:] if text[:1] in "+-" else text
    if not body or not body.isascii() or not body.isdigit():
        raise ValueError(f'strconv.ParseInt: parsing "{text}": invalid syntax')
    value = int(text)
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f'strconv.ParseInt: parsing "{text}": value out of range')
    return value


@ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "assumeCache", 89, 106)
class AssumeCache:
    """Upstream assumeCache, optionally indexed (``index_func`` gives an object's index value)."""

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "NewAssumeCache", 136, 160)
    def __init__(self, informer: Any, kind: str, description: str,
                 index_func: Optional[Callable[[Any], str]] = None) -> None:
        self.description = description
        self.index_func = index_func
        self.store: dict[str, ObjInfo] = {}
        if informer is not None:
            for obj in informer.list(kind):
                self.add(obj)
            watch = getattr(informer, "watch", None)
            if watch is not None:
                watch(kind, self._on_event)

    def _on_event(self, event: str, old: Any, new: Any) -> None:
        if event == "add":
            self.add(new)
        elif event == "update":
            self.update(old, new)
        elif event == "delete":
            self.delete(old)

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*assumeCache).add", 162, 203)
    def add(self, obj: Any) -> None:
        if obj is None:
            return
        name = meta_namespace_key(obj)
        info = self.store.get(name)
        if info is not None:
            try:
                new_version = self.get_obj_version(name, obj)
                stored_version = self.get_obj_version(name, info.latest_obj)
            except ValueError:
                return  # upstream: logged ("Add failed: couldn't get object version")
            # Only a newer object replaces the stored one (an informer resync must
            # not override an assumed object).
            if new_version <= stored_version:
                return
        self.store[name] = ObjInfo(name, obj, obj)

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*assumeCache).update", 205, 207)
    def update(self, old_obj: Any, new_obj: Any) -> None:
        self.add(new_obj)

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*assumeCache).delete", 209, 228)
    def delete(self, obj: Any) -> None:
        if obj is None:
            return
        self.store.pop(meta_namespace_key(obj), None)

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*assumeCache).getObjVersion", 230, 241)
    def get_obj_version(self, name: str, obj: Any) -> int:
        rv = obj.metadata.resource_version
        try:
            return _parse_int64(rv)
        except ValueError as err:
            raise ValueError(f'error parsing ResourceVersion "{rv}" for {self.description} "{name}": {err}') from None

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*assumeCache).getObjInfo", 243, 257)
    def get_obj_info(self, name: str) -> ObjInfo:
        info = self.store.get(name)
        if info is None:
            raise AssumeCacheNotFoundError(self.description, name)
        return info

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*assumeCache).Get", 259, 268)
    def get(self, obj_name: str) -> Any:
        return self.get_obj_info(obj_name).latest_obj

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*assumeCache).GetAPIObj", 270, 279)
    def get_api_obj(self, obj_name: str) -> Any:
        return self.get_obj_info(obj_name).api_obj

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*assumeCache).List", 281, 307)
    def list(self, index_obj: Any = None) -> list[Any]:
        """Every latest object, or those whose index value equals ``index_obj``'s."""
        infos = list(self.store.values())
        if self.index_func is not None and index_obj is not None:
            want = self.index_func(index_obj)
            infos = [i for i in infos if self.index_func(i.latest_obj) == want]
        return [i.latest_obj for i in infos]

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*assumeCache).Assume", 309, 341)
    def assume(self, obj: Any) -> None:
        """Make ``obj`` the latest object; ValueError (or not found) when it cannot be."""
        name = meta_namespace_key(obj)
        info = self.get_obj_info(name)
        new_version = self.get_obj_version(name, obj)
        stored_version = self.get_obj_version(name, info.latest_obj)
        if new_version < stored_version:
            raise ValueError(f'{self.description} "{name}" is out of sync '
                             f"(stored: {stored_version}, assume: {new_version})")
        info.latest_obj = obj

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*assumeCache).Restore", 343, 355)
    def restore(self, obj_name: str) -> None:
        info = self.store.get(obj_name)
        if info is not None:
            info.latest_obj = info.api_obj


@plumbing("the PersistentVolume ListPVs indexes by: one with only spec.storageClassName set")
@dataclass
class _ClassIndex:
    storage_class_name: str


def _pv_storage_class_index(obj: Any) -> str:
    """Upstream pvStorageClassIndexFunc."""
    from ....api.storage import get_persistent_volume_class
    if isinstance(obj, _ClassIndex):
        return obj.storage_class_name
    return get_persistent_volume_class(obj)


@ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "pvAssumeCache", 366, 369)
class PVAssumeCache(AssumeCache):
    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "NewPVAssumeCache", 379, 385)
    def __init__(self, informer: Any) -> None:
        super().__init__(informer, "PersistentVolume", PV_DESCRIPTION, _pv_storage_class_index)

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*pvAssumeCache).GetPV", 387, 398)
    def get_pv(self, pv_name: str) -> Any:
        return self.get(pv_name)

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*pvAssumeCache).GetAPIPV", 400, 410)
    def get_api_pv(self, pv_name: str) -> Any:
        return self.get_api_obj(pv_name)

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*pvAssumeCache).ListPVs", 412, 428)
    def list_pvs(self, storage_class_name: str) -> list[Any]:
        """The volumes of one storage class."""
        return self.list(_ClassIndex(storage_class_name))


@ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "pvcAssumeCache", 440, 443)
class PVCAssumeCache(AssumeCache):
    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "NewPVCAssumeCache", 446, 452)
    def __init__(self, informer: Any) -> None:
        super().__init__(informer, "PersistentVolumeClaim", PVC_DESCRIPTION)

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*pvcAssumeCache).GetPVC", 454, 465)
    def get_pvc(self, pvc_key: str) -> Any:
        return self.get(pvc_key)

    @ports("pkg/scheduler/framework/plugins/volumebinding/assume_cache.go", "(*pvcAssumeCache).GetAPIPVC", 467, 477)
    def get_api_pvc(self, pvc_key: str) -> Any:
        return self.get_api_obj(pvc_key)
