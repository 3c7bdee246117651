"""Mirrors assume_cache_test.go in pkg/scheduler/framework/plugins/volumebinding (v1.30):
TestAssumePV, TestRestorePV, TestBasicPVCache, TestPVCacheWithStorageClasses,
TestAssumeUpdatePVCache, TestAssumePVC, TestRestorePVC, plus the resourceVersion
parsing the conformance cases' fake API server runs into."""
from __future__ import annotations

import copy

import pytest

from ksched_edu.framework.plugins.volumebinding.assume_cache import (AssumeCacheNotFoundError, PVAssumeCache,
                                                                     PVCAssumeCache)
from ksched_edu.sim.apiserver import APIServer
from tests.fakes import FakeObjectLister
from tests.framework.plugins.storage_objects import pv, pvc


def _with_version(obj, rv):
    obj = copy.deepcopy(obj)
    obj.metadata.resource_version = rv
    return obj


@pytest.mark.parametrize("name,old_rv,new_rv,should_succeed", [
    ("success-same-version", "5", "5", True),
    ("success-new-version", "5", "6", True),
    ("fail-old-version", "5", "4", False),
    ("fail-new-bad-version", "5", "a", False),
    ("fail-old-bad-version", "a", "5", False),
])
def test_assume_pv(name, old_rv, new_rv, should_succeed):
    old = pv("pv1", "", rv=old_rv)
    cache = PVAssumeCache(FakeObjectLister([old]))
    new = _with_version(old, new_rv)
    new.spec.storage_class_name = "assumed"
    if should_succeed:
        cache.assume(new)
        assert cache.get_pv("pv1") is new
        assert cache.get_api_pv("pv1") is old
    else:
        with pytest.raises(ValueError):
            cache.assume(new)
        assert cache.get_pv("pv1") is old


def test_restore_pv():
    old = pv("pv1", "", rv="5")
    cache = PVAssumeCache(FakeObjectLister([old]))
    cache.restore("nothing")  # restoring an unknown object does nothing
    new = _with_version(old, "5")
    cache.assume(new)
    cache.restore("pv1")
    assert cache.get_pv("pv1") is old


def test_basic_pv_cache_follows_the_informer():
    api = APIServer()
    cache = PVAssumeCache(api)
    with pytest.raises(AssumeCacheNotFoundError, match='could not find v1.PersistentVolume "nothing"'):
        cache.get_pv("nothing")
    for i in range(10):
        api.create(pv(f"test-pv{i}", ""))
    assert len(cache.list_pvs("")) == 10
    # An update with a newer resourceVersion replaces the object.
    updated = copy.deepcopy(api.get("PersistentVolume", "", "test-pv5"))
    updated.spec.storage_class_name = ""
    api.update(updated)
    assert cache.get_pv("test-pv5") is updated
    api.delete("PersistentVolume", "", "test-pv5")
    assert len(cache.list_pvs("")) == 9


def test_pv_cache_with_storage_classes():
    cache = PVAssumeCache(FakeObjectLister([pv(f"class1-{i}", "class1") for i in range(10)]
                                           + [pv(f"class2-{i}", "class2") for i in range(5)]))
    assert len(cache.list_pvs("class1")) == 10
    assert len(cache.list_pvs("class2")) == 5
    assert cache.list_pvs("class3") == []


def test_assume_update_pv_cache():
    api = APIServer()
    cache = PVAssumeCache(api)
    api.create(pv("test-pv0", ""))
    new = copy.deepcopy(api.get("PersistentVolume", "", "test-pv0"))
    new.spec.storage_class_name = "assumed"
    cache.assume(new)
    assert cache.get_pv("test-pv0").spec.storage_class_name == "assumed"
    # An informer event that is not newer (here the same resourceVersion) keeps the assumed object.
    cache.add(api.get("PersistentVolume", "", "test-pv0"))
    assert cache.get_pv("test-pv0") is new


def test_assume_and_restore_pvc():
    old = pvc("pvc1", "", rv="5")
    cache = PVCAssumeCache(FakeObjectLister([old]))
    new = _with_version(old, "6")
    cache.assume(new)
    assert cache.get_pvc("default/pvc1") is new
    assert cache.get_api_pvc("default/pvc1") is old
    cache.restore("default/pvc1")
    assert cache.get_pvc("default/pvc1") is old
    with pytest.raises(ValueError, match=r'v1.PersistentVolumeClaim "default/pvc1" is out of sync '
                                         r'\(stored: 5, assume: 4\)'):
        cache.assume(_with_version(old, "4"))


def test_the_fake_clientsets_empty_resource_version_cannot_be_assumed():
    old = pv("pv1", "")
    cache = PVAssumeCache(FakeObjectLister([old]))
    with pytest.raises(ValueError) as e:
        cache.assume(copy.deepcopy(old))
    assert str(e.value) == ('error parsing ResourceVersion "" for v1.PersistentVolume "pv1": '
                            'strconv.ParseInt: parsing "": invalid syntax')
    # ... and an informer update of a stored object is dropped.
    updated = copy.deepcopy(old)
    updated.spec.storage_class_name = "changed"
    cache.update(old, updated)
    assert cache.get_pv("pv1") is old
