"""Data a learner should meet only when they ask for it, kept out of sight of a casual look.

A step's last hint says its answer in words. Written in plain text in the package, it
would be one glance away for a learner reading the files around their stub. Sealed, it is
compressed JSON in base64: ``minigrad.hint`` opens it, an editor shows a block of letters.
This hides nothing from someone who decodes it on purpose; it keeps the answer from being
read by accident.
"""
import base64
import json
import zlib

SUFFIX = ".dat"


def seal(data):
    """``data`` (anything JSON holds) as the text of a sealed file."""
    packed = base64.b64encode(zlib.compress(json.dumps(data, ensure_ascii=False, sort_keys=True).encode(), 9))
    return "\n".join(packed[i:i + 76].decode() for i in range(0, len(packed), 76)) + "\n"


def unseal(text):
    """What ``seal`` sealed."""
    return json.loads(zlib.decompress(base64.b64decode("".join(text.split()))))
