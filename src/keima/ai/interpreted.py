"""The compiled kernels' own Python source, run by the interpreter: what the bot uses before numba has compiled.

Every ``@njit`` function keeps the Python function it was made from (``py_func``). Called as it is, that function
would still call the *compiled* versions of the kernels it uses (its module's globals hold numba dispatchers), and
so compile them. ``interpreted(kernel)`` returns a twin of the kernel whose globals are a copy of its module's,
in which every dispatcher is replaced by its own twin, recursively: the same source, the same constants, the same
results (random draws aside: twins draw from a generator of their own, ``RANDOM``, where compiled code has
numba's, so that seeding a twin leaves numpy's global generator alone), and nothing compiled. It is one to two orders of magnitude slower than the compiled code: enough for one
position's move priors or a few dozen playouts, not for a search.

Twins are built once per process and shared; they hold no state of their own (the kernels keep theirs in the
arrays they are given).
"""

from __future__ import annotations

import threading
import types
from collections.abc import Callable
from typing import Any

import numpy as np
from numba.core.dispatcher import Dispatcher

#: The twins' random generator (``np.random.seed``, ``randint``, ``random`` in a twin are this one's).
RANDOM = np.random.RandomState()


class _Numpy:
    """numpy as the twins see it: numpy itself, but for ``random``."""

    random = RANDOM

    def __getattr__(self, name: str) -> Any:
        return getattr(np, name)


_lock = threading.Lock()
#: Module name -> the twins' shared globals (a copy of the module's namespace).
_namespaces: dict[str, dict[str, Any]] = {}
#: id(dispatcher) -> its twin.
_twins: dict[int, Callable[..., Any]] = {}


def interpreted(kernel: Any) -> Callable[..., Any]:
    """Return the interpreted twin of ``kernel``, a numba dispatcher (``@njit`` function); the twin calls only
    twins, never compiled code. Raises ``TypeError`` for anything but a dispatcher."""
    if not isinstance(kernel, Dispatcher):
        raise TypeError(f"{kernel!r} is not a numba-compiled function")
    with _lock:
        return _twin(kernel)


def _twin(kernel: Dispatcher) -> Callable[..., Any]:
    key = id(kernel)
    found = _twins.get(key)
    if found is not None:
        return found
    func = kernel.py_func
    module = func.__module__
    namespace = _namespaces.get(module)
    fresh = namespace is None
    if namespace is None:
        namespace = dict(func.__globals__)
        if namespace.get("np") is np:
            namespace["np"] = _Numpy()
        _namespaces[module] = namespace
    twin = types.FunctionType(func.__code__, namespace, func.__name__, func.__defaults__, func.__closure__)
    twin.__doc__ = func.__doc__
    # Registered before the namespace is filled, so that kernels calling each other (or themselves) meet.
    _twins[key] = twin
    if fresh:
        for name, value in list(namespace.items()):
            if isinstance(value, Dispatcher):
                namespace[name] = _twin(value)
    return twin
