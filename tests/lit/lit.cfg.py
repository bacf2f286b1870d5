# lit configuration for twintile's golden-IR tests (FileCheck).
# Each *.tir file holds RUN lines; %s is the file, tools come from the build.
import os
import lit.formats

config.name = "twintile"

site = lit_config.params.get("twintile_site_config")
if site is None:
    lit_config.fatal("pass --param twintile_site_config=BUILD/tests/lit/lit.site.cfg.py "
                     "(ctest does), so that lit finds the build's tools")
lit_config.load_config(config, site)
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".tir", ".cpp"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.twintile_obj_root, "tests", "lit-out")

config.environment["PATH"] = os.pathsep.join(
    [config.twintile_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%twintile-opt", os.path.join(config.twintile_tools_dir, "twintile-opt")))
config.substitutions.append(("%fake-cuda", config.twintile_fake_cuda))
# Kernels compiled by the tracing front end are cached inside the build tree.
config.environment["TWINTILE_CACHE_DIR"] = os.path.join(config.twintile_obj_root, "tests", "lit-cache")
if getattr(config, "twintile_sanitized", False):
    config.available_features.add("asan")
