"""The upstream libraries' Triton kernels, loaded from their installed files.

    import upstream
    fn = upstream.kernel("liger-kernel", "liger_kernel/ops/rms_norm.py", "_rms_norm_forward_kernel")
    upstream.version("liger-kernel")        # "0.8.5", or None when it is not installed

Liger-Kernel and FlagGems are installed into .venv/ by scripts/setup without
their dependencies: importing them needs PyTorch (and FlagGems a GPU), which
the experiment does not. So a kernel's module is not imported but read: its
top-level statements run one by one, in order, and a statement that fails (an
`import torch`, a constant built from a torch dtype) is skipped. Imports of
the library's own modules go through the same reading (a package's
`__init__.py` is not run: it imports the whole library); the decorators that
wrap a kernel's launch (FlagGems's `libentry`, `triton.autotune`,
`triton.heuristics`) are dropped, so the caller passes every meta-parameter
they would have chosen, and those that make a function part of a kernel
(`triton.jit`, `tl.constexpr`) kept. The code is compiled with the installed file's name
and line numbers, so Triton reads each kernel's source from that file, as it
would after a real import. Nothing of the libraries is copied into this
repository.
"""
import ast
import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import sys
from pathlib import Path

# Each distribution's import package.
PACKAGES = {"liger-kernel": "liger_kernel", "flag-gems": "flag_gems"}


def version(library):
    """The installed version of a distribution ("liger-kernel", "triton"), or None."""
    try:
        return importlib.metadata.version(library)
    except importlib.metadata.PackageNotFoundError:
        return None


def site_root(library):
    """The folder holding the library's import package (its site-packages), or None."""
    package = PACKAGES.get(library)
    if package is None:
        raise KeyError(f"{library} is not one of the upstream libraries ({', '.join(PACKAGES)})")
    if package in sys.modules:
        return Path(sys.modules[package].__path__[0]).parent
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]).parent


# Decorators that make a function part of a kernel (kept); the others wrap a kernel's launch
# (libentry, triton.autotune, triton.heuristics) and are dropped.
KEPT = ("jit", "constexpr", "constexpr_function")


def _kept(decorator):
    """@triton.jit, @jit, @triton.jit(...), @tl.constexpr, @triton.constexpr_function."""
    node = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    return name in KEPT


def read_module(module, path):
    """Run `path`'s top-level statements in `module`'s namespace, skipping those that fail."""
    tree = ast.parse(Path(path).read_text(), filename=str(path))
    skipped = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.decorator_list = [d for d in node.decorator_list if _kept(d)]
        code = compile(ast.Module(body=[node], type_ignores=[]), str(path), "exec")
        try:
            exec(code, module.__dict__)
        except Exception as e:  # noqa: BLE001 - a statement this process cannot run is skipped
            skipped.append((node.lineno, f"{type(e).__name__}: {e}"))
    module.__skipped__ = skipped
    return module


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports of an upstream package's modules, read as read_module does."""

    def __init__(self, package, root):
        self.package, self.root = package, root

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.package and not fullname.startswith(self.package + "."):
            return None
        base = self.root / Path(*fullname.split("."))
        if (base / "__init__.py").exists():
            spec = importlib.machinery.ModuleSpec(fullname, self, origin=str(base / "__init__.py"),
                                                  is_package=True)
            spec.submodule_search_locations = [str(base)]
            return spec
        if base.with_suffix(".py").exists():
            return importlib.machinery.ModuleSpec(fullname, self, origin=str(base.with_suffix(".py")))
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        if module.__spec__.submodule_search_locations is None:  # a package's __init__ is not run
            read_module(module, module.__spec__.origin)


_finders = {}


def kernel(library, module_path, function):
    """The @triton.jit function `function` of the installed file `module_path`
    ("liger_kernel/ops/rms_norm.py"); raises LookupError saying what is missing."""
    root = site_root(library)
    if root is None:
        raise LookupError(f"{library} is not installed (scripts/setup installs it into .venv/)")
    package = PACKAGES[library]
    if package not in _finders:
        _finders[package] = _Finder(package, root)
        sys.meta_path.insert(0, _finders[package])
    name = module_path.removesuffix(".py").replace("/", ".")
    if not (root / module_path).exists():
        raise LookupError(f"{library} {version(library)} has no file {module_path}")
    module = sys.modules.get(name) or importlib.import_module(name)
    fn = getattr(module, function, None)
    if fn is None:
        skipped = "; ".join(f"line {line}: {why}" for line, why in getattr(module, "__skipped__", []))
        raise LookupError(f"{module_path} of {library} {version(library)} defines no '{function}' that this "
                          f"process can load" + (f" (skipped: {skipped[:400]})" if skipped else ""))
    return fn


