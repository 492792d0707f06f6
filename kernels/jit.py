"""The kernels' ``njit``: numba's, with one compiled specialisation per argument type.

Called from compiled code with a constant argument (``push(stack, 0, 4)``), a numba
function is compiled anew for that constant's literal type, and again for every other
constant: the Clever engine carried 69 such extra copies, each optimised again inside
every kernel that calls it, for over a third of its first-run compile time. Functions
made by this ``njit`` see every literal as its plain type (``Literal[int](4)`` as
``int64``), so each has one specialisation per layout of its arguments; the code
compiled is the same. Use it exactly like ``numba.njit``.
"""

from __future__ import annotations

import os
import threading

from kernels import cache_dir

if not os.environ.get("NUMBA_CACHE_DIR"):  # numba's documented setting, read at every
    os.environ["NUMBA_CACHE_DIR"] = str(cache_dir())  # compile (and below, at once, for
    # the caches of the functions decorated next)

from numba import njit as _numba_njit  # noqa: E402
from numba.core import config, types  # noqa: E402

config.reload_config()


def _plain_types(dispatcher):
    """Make ``dispatcher`` compile for the unliteral types of the arguments it is called
    with from compiled code (calls from Python never carry literals)."""
    typed_call = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed_call(tuple(types.unliteral(a) for a in args),
                          {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def njit(*args, borrowed: bool = False, **options):
    """``numba.njit`` (same arguments, with or without parentheses) whose functions
    compile one specialisation per argument type, literals widened.

    ``borrowed=True``: the function only borrows the arrays it is given (it allocates
    none and returns none), so it compiles without numba's reference counts. Numba counts
    a reference to every array argument on entry and releases it where the variable dies;
    when it dies in more than one branch, LLVM's pruning cannot pair the operations, and
    every call of a small helper inlined into a hot loop pays a few atomic operations
    (``put`` of the Clever encoders spent half a learned game's time there). It may call
    only other ``borrowed`` functions (numba compiles a callee with its caller's reference
    counting, and a callee's code is shared by every caller). A function that breaks a
    promise is refused when it compiles (``TypeError``)."""
    if borrowed:
        options["_nrt"] = False
    if len(args) == 1 and callable(args[0]) and not options:
        return _plain_types(_numba_njit(args[0]))
    wrap = _borrowing if borrowed else _plain_types
    if len(args) == 1 and callable(args[0]):
        return wrap(_numba_njit(**options)(args[0]))
    decorate = _numba_njit(*args, **options)
    return lambda func: wrap(decorate(func))


def _holds_array(t) -> bool:
    """Is the numba type ``t`` an array, or a tuple holding one?"""
    return isinstance(t, types.ArrayCompatible) or (
        isinstance(t, types.BaseTuple) and any(_holds_array(x) for x in t))


def _check_borrowed(dispatcher, cres) -> None:
    """``TypeError`` when a ``borrowed`` function returns an array or calls a kernel
    function that is not ``borrowed`` (read where the compile result has its call types:
    compiled in this process, not loaded from the cache)."""
    name = dispatcher.py_func.__qualname__
    if _holds_array(cres.signature.return_type):
        raise TypeError(f"{name} is borrowed=True but returns an array")
    fndesc = getattr(cres, "fndesc", None)
    for expr, sig in (getattr(fndesc, "calltypes", None) or {}).items():
        if getattr(expr, "op", None) != "call" or sig is None:
            continue
        callee = fndesc.typemap.get(expr.func.name)
        if (isinstance(callee, types.Dispatcher)
                and callee.dispatcher.targetoptions.get("_nrt", True)):
            raise TypeError(f"{name} is borrowed=True but calls "
                            f"{callee.dispatcher.py_func.__qualname__}, which is not")


def _borrowing(dispatcher):
    """``_plain_types``, and every specialisation checked by ``_check_borrowed``."""
    dispatcher = _plain_types(dispatcher)
    compile_ = dispatcher.compile

    def compile(sig):
        entry = compile_(sig)
        for cres in list(dispatcher.overloads.values()):
            _check_borrowed(dispatcher, cres)
        return entry

    dispatcher.compile = compile
    return dispatcher


# --- helpers compiled as code to link, not code to run ----------------------------------
# A function numba compiles while compiling another (depth > 1: only ever called from
# compiled code so far) is lowered to LLVM IR and nothing more: no Python or C wrapper, no
# optimisation, no machine code, and a cache entry (its IR) only where ``keep_helpers``
# asks for one. Numba would link every such helper's callees into it, optimise the result
# and emit machine code for it, again at each level of the call tree: two thirds of the
# Clever engine's first compile went there. The kernel that calls them (depth 1: called
# from Python) links the IR of every helper it reaches once, optimises the whole at once,
# inlining included, and is cached with all of it; it runs as fast compiled in place as
# loaded from the cache (numba's way, a kernel compiled in place called the helpers'
# unoptimised copies). A helper later called from Python is compiled again then, as a
# kernel of its own. DICELAB_NUMBA_LINK_ALL=1: numba's way.
_compiling = threading.local()


def _depth() -> int:
    return getattr(_compiling, "depth", 0)


_keep = {"helpers": False}  # save link-only helpers in the cache (keep_helpers)


def keep_helpers() -> None:
    """From now on, save every link-only helper this process compiles in numba's cache too
    (its IR with the helpers it links): later compiles of other kernels, in any process,
    link them without typing them again. It makes this compile slower (about half as
    long again for the Clever engine), so only processes that compile kernel families
    for others do it (``analyzer.run.compile_apart``)."""
    _keep["helpers"] = True


class _LoadOnlyCache:
    """A dispatcher's cache that loads what is there and saves nothing."""

    def __init__(self, cache):
        self._cache = cache

    def load_overload(self, sig, target_context):
        return self._cache.load_overload(sig, target_context)

    def save_overload(self, sig, data):
        pass


class _LinkOnly:
    """The entry point of a link-only helper: a key to find its code by, nothing to call."""

    __slots__ = ()


def _is_link_only(cres) -> bool:
    return isinstance(getattr(cres, "entry_point", None), _LinkOnly)


def _with_helpers(libraries: list) -> list:
    """``libraries`` and, through every link-only one, the libraries it links, each once,
    every library before those it links: LLVM links a helper's functions (``linkonce_odr``)
    only into a module that already calls them."""
    done, order = set(), []

    def visit(library):
        done.add(id(library))
        if getattr(library, "_never_run", False):
            for callee in library._linking_libraries:
                if id(callee) not in done:
                    visit(callee)
        order.append(library)

    for library in libraries:
        if id(library) not in done:
            visit(library)
    return order[::-1]


LINK_KIND = "dicelab-link-only"  # a cache entry of a link-only helper: LLVM bitcode


def _closure(library):
    """A link-only helper's module with every helper it links: what the cache keeps of
    it (no machine code), so that a kernel compiled later, in any process, links it
    without typing it again."""
    module = library._final_module.clone()
    for callee in _with_helpers(library._linking_libraries):
        module.link_in(callee._get_module_for_linking(), preserve=True)
    return module


def _drop_dead_addresses(library) -> None:
    """Remove the unused loads of this process's object addresses (numba lowers every
    function a helper calls as one) and then the addresses, which would keep the helper
    out of the cache; a kernel's optimisation removes them the same way."""
    import llvmlite.binding as ll

    module = library._final_module
    if any(g.name.startswith("numba.dynamic.globals") for g in module.global_variables):
        passes = ll.create_new_module_pass_manager()
        passes.add_dead_code_elimination_pass()
        passes.add_global_dead_code_eliminate_pass()
        passes.run(module, library._codegen._pass_builder(opt=0))


def _link_only_helpers() -> None:
    import llvmlite.binding as ll
    from numba.core import codegen, cpu, dispatcher, sigutils
    from numba.core.compiler_lock import global_compiler_lock

    serialize = codegen.CPUCodeLibrary.serialize_using_object_code
    unserialize = codegen.CPUCodeLibrary._unserialize.__func__
    get_executable = cpu.CPUContext.get_executable
    set_env = codegen.JITCPUCodegen.set_env
    library_init = codegen.CPUCodeLibrary.__init__
    library_finalize = codegen.CPUCodeLibrary.finalize
    optimize_functions = codegen.CPUCodeLibrary._optimize_functions
    compile_ = dispatcher.Dispatcher.compile
    add_overload = dispatcher.Dispatcher.add_overload
    customize_flags = dispatcher._FunctionCompiler._customize_flags

    def init(self, codegen_, name):
        library_init(self, codegen_, name)
        self._link_only = _depth() > 1
        self._never_run = False

    def finalize(self):
        if self._link_only:  # kept as IR for the kernels that link it
            self._raise_if_finalized()
            if _keep["helpers"]:  # for the cache: a helper with an address is not cached
                _drop_dead_addresses(self)
                self._finalize_dynamic_globals()
            self._never_run = self._finalized = True
            return
        self._linking_libraries = _with_helpers(self._linking_libraries)
        library_finalize(self)

    def optimize(self, ll_module):
        if not self._link_only:  # the kernel optimises them with itself
            optimize_functions(self, ll_module)

    def flags_for_depth(self, flags):
        flags = customize_flags(self, flags)
        if _depth() > 1:
            flags.no_compile = flags.no_cpython_wrapper = flags.no_cfunc_wrapper = True
        return flags

    def add(self, cres):
        if cres.entry_point is None and getattr(cres.library, "_link_only", False):
            # compiled callers find its code by this key; a Python call compiles it anew
            cres = cres._replace(entry_point=_LinkOnly())
            self.targetctx.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])
        if _is_link_only(cres):
            self.overloads[tuple(cres.signature.args)] = cres
        else:
            add_overload(self, cres)

    def serialize_for_cache(self):
        if self._link_only:
            self._ensure_finalized()
            return (self.name, LINK_KIND, _closure(self).as_bitcode())
        return serialize(self)

    def unserialize_from_cache(cls, codegen_, state):
        name, kind, data = state
        if kind != LINK_KIND:
            return unserialize(cls, codegen_, state)
        library = codegen_.create_library(name)
        library._final_module = ll.parse_bitcode(data)
        library._link_only = library._never_run = library._finalized = True
        return library

    def executable(self, library, fndesc, env):
        if getattr(library, "_never_run", False):  # loaded from the cache: link only
            return _LinkOnly()
        return get_executable(self, library, fndesc, env)

    def set_env_where_defined(self, env_name, env):
        if self._engine.get_global_value_address(env_name):
            set_env(self, env_name, env)

    def compile(self, sig):
        depth = _depth()
        with global_compiler_lock:
            if depth == 0:  # from Python: a link-only helper has no code to run
                args = tuple(sigutils.normalize_signature(sig)[0])
                if _is_link_only(self.overloads.get(args)):
                    del self.overloads[args]
            _compiling.depth = depth + 1
            cache = self._cache
            if depth > 0 and not _keep["helpers"]:
                self._cache = _LoadOnlyCache(cache)
            try:
                return compile_(self, sig)
            finally:
                self._cache = cache
                _compiling.depth = depth

    codegen.CPUCodeLibrary.__init__ = init
    codegen.CPUCodeLibrary.finalize = finalize
    codegen.CPUCodeLibrary._optimize_functions = optimize
    codegen.CPUCodeLibrary.serialize_using_object_code = serialize_for_cache
    codegen.CPUCodeLibrary._unserialize = classmethod(unserialize_from_cache)
    cpu.CPUContext.get_executable = executable
    codegen.JITCPUCodegen.set_env = set_env_where_defined
    dispatcher._FunctionCompiler._customize_flags = flags_for_depth
    dispatcher.Dispatcher.add_overload = add
    dispatcher.Dispatcher.compile = compile


if os.environ.get("DICELAB_NUMBA_LINK_ALL") != "1":
    _link_only_helpers()


# --- compile variants ------------------------------------------------------------------
# A kernel package may compile differently from one process to another (the Clever engine
# for one game's sheet alone, or for the simpler policies alone: ``kernels.clever.sheets.
# compile_only``, ``kernels.clever.play.compile_policies``). The entries its kernels leave
# in numba's cache carry the variant in their key, so that no variant loads another's
# code, and the variant is fixed once anything of the package has compiled. A variant has
# parts (which sheet, which policies), each set on its own.
_variants: dict[str, dict[str, str]] = {}  # package -> {part: this process's choice}
_started: set[str] = set()  # packages with something compiled or loaded


def _package_of(module: str) -> str | None:
    return next((p for p in _variants if module == p or module.startswith(p + ".")), None)


def declare_variant(package: str, part: str, default: str) -> None:
    """Let ``package`` (a module name prefix) compile in variants of ``part``; ``default``
    until ``set_variant``."""
    _variants.setdefault(package, {}).setdefault(part, default)


def set_variant(package: str, part: str, choice: str) -> None:
    """Compile ``package`` with ``choice`` for ``part`` in this process; ``RuntimeError``
    once it has compiled with another."""
    now = _variants[package][part]
    if package in _started and now != choice:
        raise RuntimeError(f"the {package} kernels compiled with {part} {now!r} already "
                           f"in this process, not {choice!r}")
    _variants[package][part] = choice


def variant_part(package: str, part: str) -> str:
    """This process's choice for ``part`` of ``package``."""
    return _variants[package][part]


def variant(package: str) -> str:
    """This process's variant of ``package``: its parts' choices, joined."""
    return "+".join(_variants[package].values())


def in_cache(dispatcher) -> bool:
    """Has numba's on-disk cache code for ``dispatcher`` in this process's variant?"""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is None:
        return False
    package = _package_of(dispatcher.py_func.__module__)
    return any("link" not in key[2] and (package is None or key[2][-1] == variant(package))
               for key in cache_file._load_index())


def _variant_keys() -> None:
    from numba.core import caching, dispatcher

    index_key = caching.Cache._index_key
    compile_ = dispatcher.Dispatcher.compile

    def key_with_variant(self, sig, codegen):
        key = index_key(self, sig, codegen)
        package = _package_of(self._py_func.__module__)
        tags = () if package is None else (variant(package),)
        tags += ("link",) if _depth() > 1 else ()  # a link-only helper's entry (IR)
        return (*key[:2], (*key[2], *tags))

    def compile(self, sig):
        package = _package_of(self.py_func.__module__)
        if package is not None:
            _started.add(package)
        return compile_(self, sig)

    caching.Cache._index_key = key_with_variant
    dispatcher.Dispatcher.compile = compile


_variant_keys()
