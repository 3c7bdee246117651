"""The GPU-sharing plugins of the FGD paper's simulator: Open-Gpu-Share (Filter, Reserve) and six Score policies.

One module per file of the simulator's ``pkg/simulator/plugin/``. Each module
has a ``NAME`` (the simulator's plugin name) and a factory ``new(args, handle,
ctx)``; :func:`ksched_edu.gpu.sharing.registry.new_registry` binds ``ctx`` and
hands the framework ordinary ``new(args, handle)`` factories.
"""
