"""The package's sealing (``minigrad/steps/sealed.py``), for the build, which runs outside the package."""
import runpy
from pathlib import Path

_SEALED = runpy.run_path(str(Path(__file__).resolve().parent.parent / "solutions" / "minigrad" / "steps" / "sealed.py"))
seal, unseal, CHECKS = _SEALED["seal"], _SEALED["unseal"], _SEALED["CHECKS"]
