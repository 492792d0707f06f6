"""A numba kernel named by module and name (``KernelRef``): what a job's runner is made of,
and what travels to cluster workers."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class KernelRef:
    """A numba kernel named by module and name: what travels to cluster workers (each
    loads the kernel from its own numba cache)."""

    module: str
    name: str

    @classmethod
    def of(cls, kernel: Callable) -> "KernelRef":
        return cls(getattr(kernel, "py_func", kernel).__module__, kernel.__name__)

    def resolve(self) -> Callable:
        return getattr(importlib.import_module(self.module), self.name)
