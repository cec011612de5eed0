"""The README's API example runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_example_runs():
    text = README.read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "README has no python example"
    namespace: dict = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    assert namespace["result"].state.at_rest()
    assert len(namespace["batch"]) == 64


def test_readme_leads_with_install_and_test_commands():
    first_block = re.search(r"```bash\n(.*?)```", README.read_text(), flags=re.S).group(1).strip().splitlines()
    assert len(first_block) == 2
    assert "pip install" in first_block[0] and "nineball match" in first_block[0]
    assert "pytest" in first_block[1]
