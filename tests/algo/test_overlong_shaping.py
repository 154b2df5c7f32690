"""DAPO soft overlong punishment (eq. 13) and overlong filtering, by hand."""

import pytest
import torch

from rlvr.algo import drop_truncated, overlong_penalty


def test_demo_scale_by_hand():
    # max_len 32, buffer 4: no penalty up to 28, then -(len - 28)/4, -1 at and beyond 32
    lengths = torch.tensor([10, 28, 29, 30, 31, 32, 40])
    out = overlong_penalty(lengths, max_len=32, buffer=4, penalty=1.0)
    assert out.tolist() == [0.0, 0.0, -0.25, -0.5, -0.75, -1.0, -1.0]


def test_penalty_scales_the_ramp():
    out = overlong_penalty(torch.tensor([28, 30, 32]), max_len=32, buffer=4, penalty=0.5)
    assert out.tolist() == [0.0, -0.25, -0.5]


def test_paper_scale():
    # DAPO: L_max = 20480, L_cache = 4096 -> ramp from 16384; 18432 is half-way: -0.5
    out = overlong_penalty(torch.tensor([16384, 18432, 20480, 20481]), max_len=20480, buffer=4096)
    assert out.tolist() == [0.0, -0.5, -1.0, -1.0]


def test_buffer_zero_is_off():
    assert overlong_penalty(torch.tensor([5, 32, 99]), max_len=32, buffer=0).tolist() == [0.0, 0.0, 0.0]


def test_bad_buffer_is_loud():
    with pytest.raises(ValueError, match="buffer"):
        overlong_penalty(torch.tensor([5]), max_len=32, buffer=40)
    with pytest.raises(ValueError, match=r"\(B,\)"):
        overlong_penalty(torch.zeros(2, 2), max_len=32, buffer=4)


def test_drop_truncated_masks_whole_rows():
    mask = torch.tensor([[True, True, False], [True, True, True], [False, True, True]])
    out = drop_truncated(mask, torch.tensor([False, True, False]))
    assert out.tolist() == [[True, True, False], [False, False, False], [False, True, True]]
    with pytest.raises(ValueError, match="truncated"):
        drop_truncated(mask, torch.tensor([True]))
