"""Load an hf-parquet export with Hugging Face `datasets` and check the features apply: the image
column decodes to a PIL image, messages are a list of {role, content}. Run by hand where `datasets`
is installed (CI has no PyPI), or through the export test with HF_DATASETS_PYTHON=/path/to/python.

    python scripts/check-hf-parquet.py <export folder>/data
"""
import sys

import datasets
from PIL import Image

data_dir = sys.argv[1]
ds = datasets.load_dataset("parquet", data_dir=data_dir, split="train")
features = ds.features
assert isinstance(features["image"], datasets.Image), f"image loads as {features['image']!r}, not as an Image feature"
row = ds[0]
assert isinstance(row["image"], Image.Image), f"image decodes to {type(row['image']).__name__}, not a PIL image"
assert set(row["messages"][0]) == {"role", "content"}, row["messages"][0]
print(f"ok: {len(ds)} rows, image {row['image'].size}, features {sorted(features)}")
