"""Files the training tools write are whole or absent, even when an interrupt lands mid-write."""

from __future__ import annotations

from pathlib import Path

import pytest

from splendor_mcts.atomic_write import atomic_write, atomic_write_text, copy_atomically


def test_a_finished_write_replaces_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    target.write_bytes(b"old")
    with atomic_write(target) as out:
        out.write(b"new")
        assert target.read_bytes() == b"old"  # not visible until the block ends
    assert target.read_bytes() == b"new" and sorted(p.name for p in tmp_path.iterdir()) == ["state.json"]


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, OSError])
def test_an_interrupt_mid_write_keeps_the_previous_file_and_removes_the_temporary(
        tmp_path: Path, interrupt: type[BaseException]) -> None:
    target = tmp_path / "shard-00002.npz"
    target.write_bytes(b"previous")
    with pytest.raises(interrupt):
        with atomic_write(target) as out:
            out.write(b"half")
            raise interrupt()
    assert target.read_bytes() == b"previous" and sorted(p.name for p in tmp_path.iterdir()) == ["shard-00002.npz"]


def test_a_temporary_that_cannot_be_opened_is_reported_and_left_alone(tmp_path: Path) -> None:
    (tmp_path / "out.bin.tmp").mkdir()  # someone else's, or a broken disk: not ours to remove
    with pytest.raises(IsADirectoryError):
        with atomic_write(tmp_path / "out.bin"):
            pass
    assert (tmp_path / "out.bin.tmp").is_dir() and not (tmp_path / "out.bin").exists()


def test_copy_atomically_copies_the_bytes(tmp_path: Path) -> None:
    (tmp_path / "candidate.smnet").write_bytes(bytes(range(256)) * 100)
    copy_atomically(tmp_path / "candidate.smnet", tmp_path / "current.smnet")
    assert (tmp_path / "current.smnet").read_bytes() == bytes(range(256)) * 100
    with pytest.raises(FileNotFoundError):
        copy_atomically(tmp_path / "missing.smnet", tmp_path / "current.smnet")
    assert (tmp_path / "current.smnet").read_bytes() == bytes(range(256)) * 100
    assert not list(tmp_path.glob("*.tmp"))


def test_ctrl_c_mid_write_lets_the_file_finish_then_interrupts(tmp_path: Path) -> None:
    import signal

    target = tmp_path / "manifest.json"
    with pytest.raises(KeyboardInterrupt):
        with atomic_write(target) as out:
            out.write(b"first half, ")
            signal.raise_signal(signal.SIGINT)
            out.write(b"second half")
    assert target.read_bytes() == b"first half, second half" and not list(tmp_path.glob("*.tmp"))


def test_text_through_a_link_replaces_the_file_it_names_and_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "saves").mkdir()
    (tmp_path / "saves" / "game.json").write_text("old\n")
    (tmp_path / "game.json").symlink_to(tmp_path / "saves" / "game.json")
    with atomic_write_text(tmp_path / "game.json") as out:
        out.write("née\n")
    assert (tmp_path / "game.json").is_symlink()
    assert (tmp_path / "saves" / "game.json").read_text(encoding="utf-8") == "née\n"
    assert not list(tmp_path.rglob("*.tmp"))


def test_a_device_is_written_in_place_not_replaced() -> None:
    with atomic_write_text("/dev/null") as out:  # as --export /dev/stdout would be
        out.write("records\n")
    assert Path("/dev/null").is_char_device() and not Path("/dev/null.tmp").exists()


def test_a_directory_in_the_way_is_an_error_that_leaves_it_alone(tmp_path: Path) -> None:
    (tmp_path / "game.json").mkdir()
    with pytest.raises(OSError):
        with atomic_write_text(tmp_path / "game.json") as out:
            out.write("{}\n")
    assert (tmp_path / "game.json").is_dir() and not list(tmp_path.glob("*.tmp"))
