"""Records where libncpario is at install time (ncpario/_build_config.py),
so that the installed package finds it without any environment: from
NCPARIO_LIB, else pkg-config, else the source tree's build/ directory.
At import, NCPARIO_LIB still overrides it."""
import os
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def find_libdir():
    env = os.environ.get("NCPARIO_LIB")
    if env:
        return env if os.path.isdir(env) else os.path.dirname(env)
    try:
        out = subprocess.run(["pkg-config", "--variable=libdir", "ncpario"],
                             capture_output=True, text=True, timeout=10)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    tree = os.path.join(HERE, "..", "build")
    if os.path.exists(os.path.join(tree, "libncpario.so")):
        return os.path.abspath(tree)
    return ""


class BuildPy(build_py):
    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "ncpario", "_build_config.py")
        with open(target, "w") as f:
            f.write("# Written by setup.py at install time.\n")
            f.write("LIBDIR = %r\n" % find_libdir())


setup(cmdclass={"build_py": BuildPy})
