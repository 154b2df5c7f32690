"""Hand-written tasks of the code corpus (``tests/data/code_corpus``), in three test styles the
public sets lack: pytest-style tests, LeetCode-style ``Solution().method(*args)`` with input and
output lists, and stdin/stdout io. Written for this project (same licence as the project).

Each task: ``name``, ``fields`` (the sample's test fields), ``solution`` (the canonical program),
``variants`` (other correct programs, written the way models write them), ``entry`` (the function
or method the mutants target; None for io programs).
"""

from __future__ import annotations

from typing import Any


def _leet(method: str, cases: list[tuple[list[Any], Any]], hidden: int = 1) -> dict[str, Any]:
    """LeetCode style as asserts: ``Solution().method(*args) == want`` for each (args, want); the
    last ``hidden`` cases are hidden tests."""
    lines = [f"assert Solution().{method}(*{args!r}) == {want!r}" for args, want in cases]
    return {"tests": "\n".join(lines[: len(lines) - hidden]) + "\n", "hidden_tests": lines[len(lines) - hidden:]}


def _calls(method: str, cases: list[tuple[list[Any], Any]], hidden: int = 1) -> dict[str, Any]:
    """The same cases as ``call_tests`` (``entry_point`` ``Solution().method``); the hidden ones as asserts."""
    visible, rest = cases[: len(cases) - hidden], cases[len(cases) - hidden:]
    return {"call_tests": [{"input": list(args), "output": want} for args, want in visible],
            "entry_point": f"Solution().{method}", "hidden_tests": _leet(method, rest, 0)["tests"].splitlines()}


def _io(cases: list[tuple[str, str]], hidden: int = 1) -> dict[str, Any]:
    io = [{"input": i, "output": o} for i, o in cases]
    return {"io_tests": io[: len(io) - hidden], "hidden_tests": io[len(io) - hidden:]}


PYTEST: list[dict[str, Any]] = [
    {"name": "fizzbuzz", "entry": "fizzbuzz",
     "fields": {"tests": "import pytest\n\n@pytest.mark.parametrize('n, want', [(1, ['1']), (3, ['1', '2', 'Fizz']),\n"
                         "                                     (5, ['1', '2', 'Fizz', '4', 'Buzz'])])\n"
                         "def test_small(n, want):\n    assert fizzbuzz(n) == want\n\n"
                         "def test_fifteen():\n    assert fizzbuzz(15)[-1] == 'FizzBuzz'\n    assert len(fizzbuzz(15)) == 15\n"},
     "solution": "def fizzbuzz(n):\n    out = []\n    for i in range(1, n + 1):\n        if i % 15 == 0:\n            out.append('FizzBuzz')\n"
                 "        elif i % 3 == 0:\n            out.append('Fizz')\n        elif i % 5 == 0:\n            out.append('Buzz')\n"
                 "        else:\n            out.append(str(i))\n    return out\n",
     "variants": ["from typing import List\n\ndef fizzbuzz(n: int) -> List[str]:\n    \"\"\"FizzBuzz from 1 to n.\"\"\"\n"
                  "    return ['Fizz' * (i % 3 == 0) + 'Buzz' * (i % 5 == 0) or str(i) for i in range(1, n + 1)]\n"]},
    {"name": "stats", "entry": "mean",
     "fields": {"tests": "import pytest\nfrom solution import mean, median\n\ndef test_mean():\n    assert mean([1, 2, 3, 4]) == pytest.approx(2.5)\n"
                         "    assert mean([0.1, 0.2]) == pytest.approx(0.15)\n\ndef test_median():\n    assert median([3, 1, 2]) == 2\n"
                         "    assert median([4, 1, 3, 2]) == pytest.approx(2.5)\n\n"
                         "def test_empty():\n    with pytest.raises(ValueError):\n        mean([])\n    with pytest.raises(ValueError):\n"
                         "        median([])\n"},
     "solution": "def mean(xs):\n    if not xs:\n        raise ValueError('empty')\n    return sum(xs) / len(xs)\n\n"
                 "def median(xs):\n    if not xs:\n        raise ValueError('empty')\n    s = sorted(xs)\n    m = len(s) // 2\n"
                 "    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2\n",
     "variants": ["import statistics\n\ndef mean(xs):\n    if len(xs) == 0:\n        raise ValueError('mean of empty data')\n"
                  "    return statistics.fmean(xs)\n\ndef median(xs):\n    if len(xs) == 0:\n        raise ValueError('median of empty data')\n"
                  "    return statistics.median(xs)\n"]},
    {"name": "stack", "entry": "pop",
     "fields": {"tests": "import pytest\n\nclass TestStack:\n    def test_push_pop(self):\n        s = Stack()\n        s.push(1)\n        s.push(2)\n"
                         "        assert s.pop() == 2\n        assert s.peek() == 1\n        assert len(s) == 1\n\n"
                         "    def test_empty(self):\n        s = Stack()\n        assert s.is_empty()\n        with pytest.raises(IndexError):\n"
                         "            s.pop()\n"},
     "solution": "class Stack:\n    def __init__(self):\n        self._items = []\n    def push(self, x):\n        self._items.append(x)\n"
                 "    def pop(self):\n        if not self._items:\n            raise IndexError('pop from empty stack')\n        return self._items.pop()\n"
                 "    def peek(self):\n        return self._items[-1]\n    def is_empty(self):\n        return len(self._items) == 0\n"
                 "    def __len__(self):\n        return len(self._items)\n",
     "variants": ["from collections import deque\n\n\nclass Stack:\n    \"\"\"LIFO stack on a deque.\"\"\"\n\n    def __init__(self) -> None:\n"
                  "        self.data = deque()\n\n    def push(self, x) -> None:\n        self.data.append(x)\n\n    def pop(self):\n"
                  "        return self.data.pop()  # IndexError when empty\n\n    def peek(self):\n        return self.data[-1]\n\n"
                  "    def is_empty(self) -> bool:\n        return not self.data\n\n    def __len__(self) -> int:\n        return len(self.data)\n"]},
    {"name": "temperature", "entry": "c_to_f",
     "fields": {"tests": "from pytest import approx\n\ndef test_points():\n    assert c_to_f(0) == approx(32)\n    assert c_to_f(100) == approx(212)\n"
                         "    assert c_to_f(-40) == approx(-40)\n\ndef test_round_trip():\n    for c in (-10.5, 0.1, 37.0):\n"
                         "        assert f_to_c(c_to_f(c)) == approx(c)\n"},
     "solution": "def c_to_f(c):\n    return c * 9 / 5 + 32\n\ndef f_to_c(f):\n    return (f - 32) * 5 / 9\n",
     "variants": ["def c_to_f(celsius: float) -> float:\n    return celsius * 1.8 + 32.0\n\n\ndef f_to_c(fahrenheit: float) -> float:\n"
                  "    return (fahrenheit - 32.0) / 1.8\n"]},
    {"name": "merge_intervals", "entry": "merge",
     "fields": {"tests": "def test_overlap():\n    assert merge([[1, 3], [2, 6], [8, 10], [15, 18]]) == [[1, 6], [8, 10], [15, 18]]\n\n"
                         "def test_touching():\n    assert merge([[1, 4], [4, 5]]) == [[1, 5]]\n\ndef test_unsorted():\n"
                         "    assert merge([[5, 6], [1, 2], [2, 3]]) == [[1, 3], [5, 6]]\n    assert merge([]) == []\n"},
     "solution": "def merge(intervals):\n    out = []\n    for lo, hi in sorted(intervals):\n        if out and lo <= out[-1][1]:\n"
                 "            out[-1][1] = max(out[-1][1], hi)\n        else:\n            out.append([lo, hi])\n    return out\n",
     "variants": ["def merge(intervals: list[list[int]]) -> list[list[int]]:\n    if not intervals:\n        return []\n"
                  "    intervals = sorted(intervals, key=lambda iv: iv[0])\n    merged = [list(intervals[0])]\n    for start, end in intervals[1:]:\n"
                  "        last = merged[-1]\n        if start <= last[1]:\n            last[1] = max(last[1], end)\n        else:\n"
                  "            merged.append([start, end])\n    return merged\n"]},
    {"name": "roman", "entry": "to_roman",
     "fields": {"tests": "import pytest\n\n@pytest.mark.parametrize('n, s', [(1, 'I'), (4, 'IV'), (9, 'IX'), (58, 'LVIII'), (1994, 'MCMXCIV')])\n"
                         "def test_to_roman(n, s):\n    assert to_roman(n) == s\n\ndef test_range():\n    with pytest.raises(ValueError):\n"
                         "        to_roman(0)\n"},
     "solution": "def to_roman(n):\n    if not 0 < n < 4000:\n        raise ValueError(n)\n"
                 "    table = [(1000, 'M'), (900, 'CM'), (500, 'D'), (400, 'CD'), (100, 'C'), (90, 'XC'), (50, 'L'), (40, 'XL'),\n"
                 "             (10, 'X'), (9, 'IX'), (5, 'V'), (4, 'IV'), (1, 'I')]\n    out = ''\n    for value, sym in table:\n"
                 "        while n >= value:\n            out += sym\n            n -= value\n    return out\n",
     "variants": ["VALUES = dict(M=1000, CM=900, D=500, CD=400, C=100, XC=90, L=50, XL=40, X=10, IX=9, V=5, IV=4, I=1)\n\n"
                  "def to_roman(n: int) -> str:\n    if n <= 0 or n >= 4000:\n        raise ValueError(f'out of range: {n}')\n    parts = []\n"
                  "    for sym, value in VALUES.items():\n        count, n = divmod(n, value)\n        parts.append(sym * count)\n"
                  "    return ''.join(parts)\n"]},
    {"name": "rle", "entry": "encode",
     "fields": {"tests": "import pytest\n\n@pytest.fixture\ndef samples():\n    return ['', 'a', 'aaabccdddd', 'abc']\n\n"
                         "def test_encode():\n    assert encode('aaabccdddd') == '3a1b2c4d'\n\ndef test_round_trip(samples):\n"
                         "    for s in samples:\n        assert decode(encode(s)) == s\n"},
     "solution": "from itertools import groupby\n\ndef encode(s):\n    return ''.join(f'{len(list(g))}{ch}' for ch, g in groupby(s))\n\n"
                 "def decode(s):\n    out, num = [], ''\n    for ch in s:\n        if ch.isdigit():\n            num += ch\n        else:\n"
                 "            out.append(ch * int(num))\n            num = ''\n    return ''.join(out)\n",
     "variants": ["import re\n\n\ndef encode(text):\n    result = []\n    i = 0\n    while i < len(text):\n        j = i\n"
                  "        while j < len(text) and text[j] == text[i]:\n            j += 1\n        result.append(str(j - i) + text[i])\n"
                  "        i = j\n    return ''.join(result)\n\n\ndef decode(text):\n"
                  "    return ''.join(ch * int(n) for n, ch in re.findall(r'(\\d+)(\\D)', text))\n"]},
    {"name": "gcd_unittest", "entry": "gcd",
     "fields": {"tests": "import unittest\n\nclass GcdTest(unittest.TestCase):\n    def test_gcd(self):\n        self.assertEqual(gcd(12, 18), 6)\n"
                         "        self.assertEqual(gcd(7, 13), 1)\n        self.assertEqual(gcd(0, 5), 5)\n\n    def test_lcm(self):\n"
                         "        self.assertEqual(lcm(4, 6), 12)\n        self.assertEqual(lcm(3, 5), 15)\n"},
     "solution": "def gcd(a, b):\n    while b:\n        a, b = b, a % b\n    return abs(a)\n\ndef lcm(a, b):\n    return abs(a * b) // gcd(a, b)\n",
     "variants": ["import math\n\ndef gcd(a: int, b: int) -> int:\n    return math.gcd(a, b)\n\ndef lcm(a: int, b: int) -> int:\n"
                  "    return a * b // math.gcd(a, b) if a and b else 0\n"]},
    {"name": "word_count", "entry": "word_count",
     "fields": {"tests": "def test_counts():\n    assert word_count('the cat the hat') == {'the': 2, 'cat': 1, 'hat': 1}\n\n"
                         "def test_case_and_punctuation():\n    assert word_count('Hi, hi! HI.') == {'hi': 3}\n    assert word_count('') == {}\n"},
     "solution": "import re\n\ndef word_count(text):\n    counts = {}\n    for w in re.findall(r'[a-z]+', text.lower()):\n"
                 "        counts[w] = counts.get(w, 0) + 1\n    return counts\n",
     "variants": ["from collections import Counter\nimport string\n\ndef word_count(text: str) -> dict:\n"
                  "    cleaned = text.lower().translate(str.maketrans('', '', string.punctuation))\n    return dict(Counter(cleaned.split()))\n"]},
    {"name": "flatten", "entry": "flatten",
     "fields": {"tests": "class TestFlatten:\n    def test_nested(self):\n        assert flatten([1, [2, [3, [4]]], 5]) == [1, 2, 3, 4, 5]\n\n"
                         "    def test_empty(self):\n        assert flatten([]) == []\n        assert flatten([[], [[]]]) == []\n"},
     "solution": "def flatten(xs):\n    out = []\n    for x in xs:\n        if isinstance(x, list):\n            out.extend(flatten(x))\n"
                 "        else:\n            out.append(x)\n    return out\n",
     "variants": ["def flatten(items):\n    def walk(node):\n        for item in node:\n            if isinstance(item, list):\n"
                  "                yield from walk(item)\n            else:\n                yield item\n    return list(walk(items))\n"]},
]

LEET: list[dict[str, Any]] = [
    {"name": "two_sum", "entry": "twoSum",
     "fields": _leet("twoSum", [([[2, 7, 11, 15], 9], [0, 1]), ([[3, 2, 4], 6], [1, 2]), ([[3, 3], 6], [0, 1]), ([[1, 5, 8, 2], 10], [2, 3])]),
     "solution": "class Solution:\n    def twoSum(self, nums, target):\n        seen = {}\n        for i, x in enumerate(nums):\n"
                 "            if target - x in seen:\n                return [seen[target - x], i]\n            seen[x] = i\n        return []\n",
     "variants": ["from typing import List\n\nclass Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:\n"
                  "        for i in range(len(nums)):\n            for j in range(i + 1, len(nums)):\n"
                  "                if nums[i] + nums[j] == target:\n                    return [i, j]\n        return []\n"]},
    {"name": "valid_parens", "entry": "isValid",
     "fields": _calls("isValid", [(["()"], True), (["()[]{}"], True), (["(]"], False), (["([)]"], False), (["{[]}"], True), ([""], True)]),
     "solution": "class Solution:\n    def isValid(self, s):\n        pairs = {')': '(', ']': '[', '}': '{'}\n        stack = []\n"
                 "        for ch in s:\n            if ch in pairs:\n                if not stack or stack.pop() != pairs[ch]:\n"
                 "                    return False\n            else:\n                stack.append(ch)\n        return not stack\n",
     "variants": ["class Solution:\n    def isValid(self, s: str) -> bool:\n        prev = None\n        while prev != s:\n            prev = s\n"
                  "            s = s.replace('()', '').replace('[]', '').replace('{}', '')\n        return s == ''\n"]},
    {"name": "max_subarray", "entry": "maxSubArray",
     "fields": _leet("maxSubArray", [([[-2, 1, -3, 4, -1, 2, 1, -5, 4]], 6), ([[1]], 1), ([[5, 4, -1, 7, 8]], 23), ([[-3, -1, -2]], -1)]),
     "solution": "class Solution:\n    def maxSubArray(self, nums):\n        best = cur = nums[0]\n        for x in nums[1:]:\n"
                 "            cur = max(x, cur + x)\n            best = max(best, cur)\n        return best\n",
     "variants": ["import math\n\nclass Solution:\n    def maxSubArray(self, nums: list[int]) -> int:\n        best, running = -math.inf, 0\n"
                  "        for n in nums:\n            running = n if running < 0 else running + n\n            best = max(best, running)\n"
                  "        return best\n"]},
    {"name": "climb_stairs", "entry": "climbStairs",
     "fields": _calls("climbStairs", [([2], 2), ([3], 3), ([5], 8), ([10], 89), ([30], 1346269)]),
     "solution": "class Solution:\n    def climbStairs(self, n):\n        a, b = 1, 1\n        for _ in range(n):\n            a, b = b, a + b\n"
                 "        return a\n",
     "variants": ["from functools import lru_cache\n\nclass Solution:\n    def climbStairs(self, n: int) -> int:\n        @lru_cache(None)\n"
                  "        def ways(k):\n            return 1 if k <= 1 else ways(k - 1) + ways(k - 2)\n        return ways(n)\n"]},
    {"name": "longest_substring", "entry": "lengthOfLongestSubstring",
     "fields": _leet("lengthOfLongestSubstring", [(["abcabcbb"], 3), (["bbbbb"], 1), (["pwwkew"], 3), ([""], 0), (["dvdf"], 3)]),
     "solution": "class Solution:\n    def lengthOfLongestSubstring(self, s):\n        last, start, best = {}, 0, 0\n"
                 "        for i, ch in enumerate(s):\n            if last.get(ch, -1) >= start:\n                start = last[ch] + 1\n"
                 "            last[ch] = i\n            best = max(best, i - start + 1)\n        return best\n",
     "variants": ["class Solution:\n    def lengthOfLongestSubstring(self, s: str) -> int:\n        window = set()\n        left = result = 0\n"
                  "        for right in range(len(s)):\n            while s[right] in window:\n                window.remove(s[left])\n"
                  "                left += 1\n            window.add(s[right])\n            result = max(result, right - left + 1)\n"
                  "        return result\n"]},
    {"name": "search_insert", "entry": "searchInsert",
     "fields": _calls("searchInsert", [([[1, 3, 5, 6], 5], 2), ([[1, 3, 5, 6], 2], 1), ([[1, 3, 5, 6], 7], 4), ([[1, 3, 5, 6], 0], 0)]),
     "solution": "class Solution:\n    def searchInsert(self, nums, target):\n        lo, hi = 0, len(nums)\n        while lo < hi:\n"
                 "            mid = (lo + hi) // 2\n            if nums[mid] < target:\n                lo = mid + 1\n            else:\n"
                 "                hi = mid\n        return lo\n",
     "variants": ["import bisect\n\nclass Solution:\n    def searchInsert(self, nums: list, target: int) -> int:\n"
                  "        return bisect.bisect_left(nums, target)\n"]},
    {"name": "single_number", "entry": "singleNumber",
     "fields": _leet("singleNumber", [([[2, 2, 1]], 1), ([[4, 1, 2, 1, 2]], 4), ([[1]], 1), ([[-3, 7, 7]], -3)]),
     "solution": "class Solution:\n    def singleNumber(self, nums):\n        x = 0\n        for n in nums:\n            x ^= n\n        return x\n",
     "variants": ["from collections import Counter\n\nclass Solution:\n    def singleNumber(self, nums):\n"
                  "        return next(k for k, v in Counter(nums).items() if v == 1)\n"]},
    {"name": "common_prefix", "entry": "longestCommonPrefix",
     "fields": _calls("longestCommonPrefix", [([["flower", "flow", "flight"]], "fl"), ([["dog", "racecar", "car"]], ""),
                                             ([["a"]], "a"), ([["ab", "abc", "abd"]], "ab")]),
     "solution": "class Solution:\n    def longestCommonPrefix(self, strs):\n        prefix = strs[0]\n        for s in strs[1:]:\n"
                 "            while not s.startswith(prefix):\n                prefix = prefix[:-1]\n        return prefix\n",
     "variants": ["import os\n\nclass Solution:\n    def longestCommonPrefix(self, strs: list[str]) -> str:\n"
                  "        return os.path.commonprefix(strs)\n"]},
    {"name": "max_profit", "entry": "maxProfit",
     "fields": _leet("maxProfit", [([[7, 1, 5, 3, 6, 4]], 5), ([[7, 6, 4, 3, 1]], 0), ([[2, 4, 1]], 2), ([[3, 8, 1, 9]], 8)]),
     "solution": "class Solution:\n    def maxProfit(self, prices):\n        low, best = float('inf'), 0\n        for p in prices:\n"
                 "            low = min(low, p)\n            best = max(best, p - low)\n        return best\n",
     "variants": ["class Solution:\n    def maxProfit(self, prices: list[int]) -> int:\n        if not prices:\n            return 0\n"
                  "        profit, cheapest = 0, prices[0]\n        for price in prices[1:]:\n            if price < cheapest:\n"
                  "                cheapest = price\n            elif price - cheapest > profit:\n                profit = price - cheapest\n"
                  "        return profit\n"]},
    {"name": "product_except_self", "entry": "productExceptSelf",
     "fields": _calls("productExceptSelf", [([[1, 2, 3, 4]], [24, 12, 8, 6]), ([[-1, 1, 0, -3, 3]], [0, 0, 9, 0, 0]),
                                           ([[2, 3]], [3, 2])]),
     "solution": "class Solution:\n    def productExceptSelf(self, nums):\n        n = len(nums)\n        out = [1] * n\n        left = 1\n"
                 "        for i in range(n):\n            out[i] = left\n            left *= nums[i]\n        right = 1\n"
                 "        for i in range(n - 1, -1, -1):\n            out[i] *= right\n            right *= nums[i]\n        return out\n",
     "variants": ["from itertools import accumulate\nimport operator\n\nclass Solution:\n    def productExceptSelf(self, nums):\n"
                  "        pre = [1] + list(accumulate(nums, operator.mul))[:-1]\n"
                  "        suf = ([1] + list(accumulate(reversed(nums), operator.mul))[:-1])[::-1]\n"
                  "        return [a * b for a, b in zip(pre, suf)]\n"]},
]

IO: list[dict[str, Any]] = [
    {"name": "a_plus_b", "fields": _io([("1 2\n", "3\n"), ("-5 5\n", "0\n"), ("1000000000000 1\n", "1000000000001\n")]),
     "solution": "a, b = map(int, input().split())\nprint(a + b)\n",
     "variants": ["import sys\n\ndef main():\n    a, b = map(int, sys.stdin.read().split())\n    print(a + b)\n\nif __name__ == '__main__':\n"
                  "    main()\n"]},
    {"name": "min_max", "fields": _io([("3\n4 -2 9\n", "-2 9\n"), ("1\n7\n", "7 7\n"), ("5\n5 4 3 2 1\n", "1 5\n")]),
     "solution": "n = int(input())\nxs = list(map(int, input().split()))\nprint(min(xs), max(xs))\n",
     "variants": ["import sys\ndata = sys.stdin.buffer.read().split()\nn = int(data[0])\nnums = [int(x) for x in data[1:1 + n]]\n"
                  "sys.stdout.write(f'{min(nums)} {max(nums)}\\n')\n"]},
    {"name": "reverse_words", "fields": _io([("hello world\n", "world hello\n"), ("a\n", "a\n"), ("one two three\n", "three two one\n")]),
     "solution": "print(' '.join(input().split()[::-1]))\n",
     "variants": ["def solve(line: str) -> str:\n    words = line.split()\n    words.reverse()\n    return ' '.join(words)\n\n"
                  "print(solve(input()))\n"]},
    {"name": "vowels_per_line", "fields": _io([("2\nhello\nsky\n", "2\n0\n"), ("1\nAEIOU xyz\n", "5\n"), ("3\na\nb\nooo\n", "1\n0\n3\n")]),
     "solution": "n = int(input())\nfor _ in range(n):\n    print(sum(ch in 'aeiouAEIOU' for ch in input()))\n",
     "variants": ["import sys\nlines = sys.stdin.read().splitlines()\nfor line in lines[1:1 + int(lines[0])]:\n"
                  "    print(len([c for c in line.lower() if c in 'aeiou']))\n"]},
    {"name": "factorial_mod", "fields": _io([("5\n", "120\n"), ("0\n", "1\n"), ("100000\n", "457992974\n")]),
     "solution": "MOD = 10 ** 9 + 7\nn = int(input())\nr = 1\nfor i in range(2, n + 1):\n    r = r * i % MOD\nprint(r)\n",
     "variants": ["def fact_mod(n, mod=1_000_000_007):\n    result = 1\n    for k in range(1, n + 1):\n        result = (result * k) % mod\n"
                  "    return result\n\nif __name__ == '__main__':\n    print(fact_mod(int(input().strip())))\n"]},
    {"name": "transpose", "fields": _io([("2 3\n1 2 3\n4 5 6\n", "1 4\n2 5\n3 6\n"), ("1 1\n9\n", "9\n"), ("3 1\n1\n2\n3\n", "1 2 3\n")]),
     "solution": "r, c = map(int, input().split())\nm = [input().split() for _ in range(r)]\nfor j in range(c):\n"
                 "    print(' '.join(m[i][j] for i in range(r)))\n",
     "variants": ["import sys\nit = iter(sys.stdin.read().split())\nrows, cols = int(next(it)), int(next(it))\n"
                  "grid = [[next(it) for _ in range(cols)] for _ in range(rows)]\nfor col in zip(*grid):\n    print(*col)\n"]},
    {"name": "fibonacci", "fields": _io([("10\n", "55\n"), ("1\n", "1\n"), ("90\n", "2880067194370816120\n")]),
     "solution": "n = int(input())\na, b = 0, 1\nfor _ in range(n):\n    a, b = b, a + b\nprint(a)\n",
     "variants": ["from functools import lru_cache\nimport sys\nsys.setrecursionlimit(10000)\n\n@lru_cache(maxsize=None)\ndef fib(n):\n"
                  "    return n if n < 2 else fib(n - 1) + fib(n - 2)\n\nprint(fib(int(input())))\n"]},
    {"name": "sort_numbers", "fields": _io([("5\n3 1 4 1 5\n", "1 1 3 4 5\n"), ("1\n-1\n", "-1\n"), ("4\n10 -10 0 5\n", "-10 0 5 10\n")]),
     "solution": "input()\nprint(*sorted(map(int, input().split())))\n",
     "variants": ["n = int(input())\nnums = sorted(int(t) for t in input().split())\nprint(' '.join(map(str, nums)))\n"]},
    {"name": "primes", "fields": _io([("3\n2\n15\n17\n", "YES\nNO\nYES\n"), ("2\n1\n97\n", "NO\nYES\n"), ("1\n1000003\n", "YES\n")]),
     "solution": "def is_prime(n):\n    if n < 2:\n        return False\n    i = 2\n    while i * i <= n:\n        if n % i == 0:\n"
                 "            return False\n        i += 1\n    return True\n\nfor _ in range(int(input())):\n"
                 "    print('YES' if is_prime(int(input())) else 'NO')\n",
     "variants": ["import math\nimport sys\n\n\ndef prime(n: int) -> bool:\n    return n > 1 and all(n % d for d in range(2, math.isqrt(n) + 1))\n\n\n"
                  "def main() -> None:\n    q, *nums = map(int, sys.stdin.read().split())\n    print('\\n'.join('YES' if prime(x) else 'NO' for x in nums[:q]))\n\n\n"
                  "main()\n"]},
    {"name": "balanced", "fields": _io([("3\n()\n(()\n([]{})\n", "YES\nNO\nYES\n"), ("1\n)(\n", "NO\n"), ("2\n[[]]\n{)\n", "YES\nNO\n")]),
     "solution": "def ok(s):\n    st = []\n    for ch in s:\n        if ch in '([{':\n            st.append(ch)\n        else:\n"
                 "            if not st or '([{'[')]}'.index(ch)] != st.pop():\n                return False\n    return not st\n\n"
                 "for _ in range(int(input())):\n    print('YES' if ok(input().strip()) else 'NO')\n",
     "variants": ["import sys\n\nPAIRS = {')': '(', ']': '[', '}': '{'}\n\n\ndef balanced(s):\n    stack = []\n    for c in s:\n"
                  "        if c in PAIRS.values():\n            stack.append(c)\n        elif not stack or stack[-1] != PAIRS[c]:\n"
                  "            return False\n        else:\n            stack.pop()\n    return len(stack) == 0\n\n\n"
                  "lines = sys.stdin.read().split()\nfor s in lines[1:]:\n    print('YES' if balanced(s) else 'NO')\n"]},
]


# Tasks whose tests use more of the standard library: enums (identity, Flag), dataclasses,
# the program's own exceptions with attributes, pathlib and pytest's tmp_path, generators,
# collections, Decimal/datetime under unittest, SimpleNamespace, argparse's SystemExit.
STDLIB: list[dict[str, Any]] = [
    {"name": "enum_light", "entry": "next_light",
     "fields": {"tests": "import pytest\nfrom solution import Light, next_light\n\ndef test_cycle():\n    assert next_light(Light.RED) is Light.GREEN\n    assert next_light(Light.GREEN) is Light.YELLOW\n    assert next_light(Light.YELLOW) is Light.RED\n\ndef test_members():\n    assert [m.name for m in Light] == ['RED', 'YELLOW', 'GREEN']\n    assert Light(2) is Light.YELLOW\n\ndef test_not_a_light():\n    with pytest.raises((ValueError, KeyError)):\n        next_light('red')\n"},
     "solution": "import enum\n\nclass Light(enum.Enum):\n    RED = 1\n    YELLOW = 2\n    GREEN = 3\n\ndef next_light(light):\n    order = [Light.RED, Light.GREEN, Light.YELLOW]\n    return order[(order.index(light) + 1) % len(order)]\n",
     "variants": ["from enum import Enum\n\n\nclass Light(Enum):\n    RED = 1\n    YELLOW = 2\n    GREEN = 3\n\n\n_NEXT = {Light.RED: Light.GREEN, Light.GREEN: Light.YELLOW, Light.YELLOW: Light.RED}\n\n\ndef next_light(light: Light) -> Light:\n    return _NEXT[light]\n"]},
    {"name": "flag_perms", "entry": "parse_perms",
     "fields": {"tests": "assert parse_perms('rw-') == Perm.R | Perm.W\nassert Perm.X not in parse_perms('rw-')\nassert Perm.X in parse_perms('--x')\nassert not parse_perms('---')\nassert parse_perms('rwx') == Perm.R | Perm.W | Perm.X\n",
                "hidden_tests": ["assert parse_perms('r-x') == Perm.R | Perm.X"]},
     "solution": "import enum\n\nclass Perm(enum.Flag):\n    R = 4\n    W = 2\n    X = 1\n\ndef parse_perms(s):\n    out = Perm(0)\n    for ch, p in zip(s, (Perm.R, Perm.W, Perm.X)):\n        if ch != '-':\n            out |= p\n    return out\n",
     "variants": ["from enum import Flag, auto\n\n\nclass Perm(Flag):\n    X = 1\n    W = 2\n    R = 4\n\n\ndef parse_perms(s: str) -> Perm:\n    flags = [Perm.R, Perm.W, Perm.X]\n    result = Perm(0)\n    for i, ch in enumerate(s):\n        if ch in 'rwx':\n            result = result | flags[i]\n    return result\n"]},
    {"name": "dataclass_items", "entry": "cheapest",
     "fields": {"tests": "import pytest\nfrom solution import Item, cheapest, total\n\ndef test_cheapest():\n    items = [Item(3.0, 'a'), Item(1.5, 'b'), Item(2.0, 'c')]\n    assert cheapest(items).name == 'b'\n    assert cheapest(items) == Item(1.5, 'other name')\n\ndef test_total():\n    assert total([Item(3.0, 'a'), Item(1.5, 'b')]) == pytest.approx(4.5)\n    assert total([]) == 0\n\ndef test_order():\n    assert Item(1.0, 'x') < Item(2.0, 'a')\n"},
     "solution": "from dataclasses import dataclass, field\n\n@dataclass(order=True)\nclass Item:\n    price: float\n    name: str = field(compare=False)\n\ndef cheapest(items):\n    return min(items)\n\ndef total(items):\n    return sum(i.price for i in items)\n",
     "variants": ["from dataclasses import dataclass, field\nfrom typing import List\n\n\n@dataclass(order=True)\nclass Item:\n    price: float\n    name: str = field(default='', compare=False)\n\n\ndef cheapest(items: List[Item]) -> Item:\n    best = items[0]\n    for it in items[1:]:\n        if it.price < best.price:\n            best = it\n    return best\n\n\ndef total(items: List[Item]) -> float:\n    s = 0\n    for it in items:\n        s += it.price\n    return s\n"]},
    {"name": "exception_withdraw", "entry": "withdraw",
     "fields": {"tests": "import pytest\nfrom solution import InsufficientFunds, withdraw\n\ndef test_ok():\n    assert withdraw(10, 3) == 7\n\ndef test_too_much():\n    with pytest.raises(InsufficientFunds) as info:\n        withdraw(5, 8)\n    assert info.value.balance == 5 and info.value.amount == 8\n    assert 'balance 5' in str(info.value)\n\ndef test_bad_amount():\n    with pytest.raises(ValueError):\n        withdraw(5, 0)\n\ndef test_is_an_exception():\n    assert issubclass(InsufficientFunds, Exception)\n"},
     "solution": "class InsufficientFunds(Exception):\n    def __init__(self, balance, amount):\n        super().__init__(f'balance {balance} < {amount}')\n        self.balance = balance\n        self.amount = amount\n\ndef withdraw(balance, amount):\n    if amount <= 0:\n        raise ValueError('amount must be positive')\n    if amount > balance:\n        raise InsufficientFunds(balance, amount)\n    return balance - amount\n",
     "variants": ["class InsufficientFunds(ValueError):\n    \"\"\"Raised when a withdrawal exceeds the balance.\"\"\"\n\n    def __init__(self, balance: int, amount: int) -> None:\n        self.balance = balance\n        self.amount = amount\n        super().__init__('balance %d < %d' % (balance, amount))\n\n\ndef withdraw(balance: int, amount: int) -> int:\n    if not amount > 0:\n        raise ValueError(f'invalid amount {amount}')\n    if balance < amount:\n        raise InsufficientFunds(balance, amount)\n    return balance - amount\n"]},
    {"name": "pure_paths", "entry": "change_suffix",
     "fields": {"tests": "from pathlib import PurePosixPath\nassert change_suffix('/a/b/c.txt', '.md') == '/a/b/c.md'\nassert parent_of('/a/b/c.txt') == PurePosixPath('/a/b')\nassert parent_of('x.py').name == ''\nassert parts_of('/a/b') == ('/', 'a', 'b')\n",
                "hidden_tests": ["assert change_suffix('notes', '.txt') == 'notes.txt'"]},
     "solution": "from pathlib import PurePosixPath\n\ndef change_suffix(path, suffix):\n    return str(PurePosixPath(path).with_suffix(suffix))\n\ndef parent_of(path):\n    return PurePosixPath(path).parent\n\ndef parts_of(path):\n    return PurePosixPath(path).parts\n",
     "variants": ["import posixpath\nfrom pathlib import PurePosixPath\n\n\ndef change_suffix(path: str, suffix: str) -> str:\n    root, _ = posixpath.splitext(path)\n    return root + suffix\n\n\ndef parent_of(path: str) -> PurePosixPath:\n    return PurePosixPath(posixpath.dirname(path) or '.')\n\n\ndef parts_of(path: str) -> tuple:\n    return tuple(PurePosixPath(path).parts)\n"]},
    {"name": "tmp_path_lines", "entry": "count_lines",
     "fields": {"tests": "import pytest\n\ndef test_round_trip(tmp_path):\n    p = tmp_path / 'x.txt'\n    write_lines(p, ['a', 'b', 'c'])\n    assert p.read_text() == 'a\\nb\\nc\\n'\n    assert count_lines(p) == 3\n\ndef test_missing(tmp_path):\n    with pytest.raises(FileNotFoundError) as info:\n        count_lines(tmp_path / 'nope.txt')\n    assert info.value.filename == str(tmp_path / 'nope.txt')\n"},
     "solution": "def write_lines(path, lines):\n    with open(path, 'w') as fh:\n        fh.write('\\n'.join(lines) + '\\n')\n\ndef count_lines(path):\n    with open(path) as fh:\n        return sum(1 for _ in fh)\n",
     "variants": ["from pathlib import Path\n\n\ndef write_lines(path, lines):\n    Path(path).write_text(''.join(line + '\\n' for line in lines))\n\n\ndef count_lines(path):\n    with open(str(path)) as f:\n        return len(f.readlines())\n"]},
    {"name": "generator_chunks", "entry": "chunks",
     "fields": {"tests": "import pytest\n\ndef test_chunks():\n    g = chunks([1, 2, 3, 4, 5], 2)\n    assert next(g) == [1, 2]\n    assert list(g) == [[3, 4], [5]]\n\ndef test_empty():\n    with pytest.raises(StopIteration):\n        next(chunks([], 3))\n\ndef test_lazy():\n    seen = []\n    def source():\n        for i in range(4):\n            seen.append(i)\n            yield i\n    assert list(chunks(list(source()), 3)) == [[0, 1, 2], [3]]\n    assert seen == [0, 1, 2, 3]\n"},
     "solution": "def chunks(xs, n):\n    for i in range(0, len(xs), n):\n        yield xs[i:i + n]\n",
     "variants": ["from itertools import islice\n\n\ndef chunks(xs, n):\n    it = iter(xs)\n    while True:\n        block = list(islice(it, n))\n        if not block:\n            return\n        yield block\n"]},
    {"name": "counter_words", "entry": "top_words",
     "fields": {"tests": "assert top_words('a b a c a b', 2) == [('a', 3), ('b', 2)]\nassert top_words('a b a', 1)[0].count == 2\nassert top_words('x', 1)[0].text == 'x'\nassert word_counts('b a b') == {'b': 2, 'a': 1}\n",
                "hidden_tests": ["assert top_words('', 3) == []"]},
     "solution": "from collections import Counter, namedtuple\n\nWord = namedtuple('Word', 'text count')\n\ndef word_counts(text):\n    return Counter(text.split())\n\ndef top_words(text, k):\n    return [Word(w, n) for w, n in word_counts(text).most_common(k)]\n",
     "variants": ["from collections import namedtuple\nfrom typing import Dict, List\n\nWord = namedtuple('Word', ['text', 'count'])\n\n\ndef word_counts(text: str) -> Dict[str, int]:\n    counts: Dict[str, int] = {}\n    for w in text.split():\n        counts[w] = counts.get(w, 0) + 1\n    return counts\n\n\ndef top_words(text: str, k: int) -> List[Word]:\n    counts = word_counts(text)\n    order = sorted(counts, key=lambda w: -counts[w])\n    return [Word(w, counts[w]) for w in order[:k]]\n"]},
    {"name": "deque_recent", "entry": "recent",
     "fields": {"tests": "from collections import deque, OrderedDict\nassert recent([1, 2, 3, 4], 2) == deque([3, 4])\nassert recent([1, 2, 3, 4], 2).maxlen == 2\nassert list(lru_order(['a', 'b', 'a', 'c'])) == ['b', 'a', 'c']\nassert lru_order(['x']) == OrderedDict([('x', None)])\n"},
     "solution": "from collections import deque, OrderedDict\n\ndef recent(xs, n):\n    return deque(xs, maxlen=n)\n\ndef lru_order(keys):\n    d = OrderedDict()\n    for k in keys:\n        d[k] = None\n        d.move_to_end(k)\n    return d\n",
     "variants": ["import collections\n\n\ndef recent(xs, n):\n    q = collections.deque(maxlen=n)\n    for x in xs:\n        q.append(x)\n    return q\n\n\ndef lru_order(keys):\n    d = collections.OrderedDict()\n    for k in keys:\n        if k in d:\n            del d[k]\n        d[k] = None\n    return d\n"]},
    {"name": "decimal_dates", "entry": "add_business_days",
     "fields": {"tests": "import unittest\nfrom datetime import date\nfrom decimal import Decimal\n\nclass TestMoneyAndDates(unittest.TestCase):\n    def test_tax(self):\n        self.assertEqual(price_with_tax('10.00', '0.075'), Decimal('10.75'))\n        self.assertEqual(price_with_tax('0.10', '0.5'), Decimal('0.15'))\n\n    def test_business_days(self):\n        self.assertEqual(add_business_days(date(2024, 1, 5), 1), date(2024, 1, 8))\n        self.assertEqual(add_business_days(date(2024, 1, 1), 5), date(2024, 1, 8))\n        self.assertEqual(add_business_days(date(2024, 1, 3), 0), date(2024, 1, 3))\n"},
     "solution": "from datetime import timedelta\nfrom decimal import Decimal, ROUND_HALF_UP\n\ndef price_with_tax(amount, rate):\n    return (Decimal(amount) * (1 + Decimal(rate))).quantize(Decimal('0.01'), rounding=ROUND_HALF_UP)\n\ndef add_business_days(d, n):\n    while n > 0:\n        d += timedelta(days=1)\n        if d.weekday() < 5:\n            n -= 1\n    return d\n",
     "variants": ["import datetime\nimport decimal\n\n\ndef price_with_tax(amount, rate):\n    total = decimal.Decimal(amount) * (decimal.Decimal(1) + decimal.Decimal(rate))\n    return total.quantize(decimal.Decimal('0.01'), rounding=decimal.ROUND_HALF_UP)\n\n\ndef add_business_days(d, n):\n    added = 0\n    while added < n:\n        d = d + datetime.timedelta(days=1)\n        if d.isoweekday() <= 5:\n            added += 1\n    return d\n"]},
    {"name": "namespace_config", "entry": "parse_config",
     "fields": {"tests": "from types import SimpleNamespace\nassert parse_config('a = 1\\nb = x') == SimpleNamespace(a='1', b='x')\nassert parse_config('# c\\n\\nk=v').k == 'v'\nassert vars(parse_config('')) == {}\n"},
     "solution": "from types import SimpleNamespace\n\ndef parse_config(text):\n    ns = SimpleNamespace()\n    for line in text.splitlines():\n        line = line.strip()\n        if not line or line.startswith('#'):\n            continue\n        key, value = line.split('=', 1)\n        setattr(ns, key.strip(), value.strip())\n    return ns\n",
     "variants": ["import types\n\n\ndef parse_config(text: str) -> types.SimpleNamespace:\n    values = {}\n    for raw in text.split('\\n'):\n        if '=' not in raw or raw.lstrip().startswith('#'):\n            continue\n        k, _, v = raw.partition('=')\n        values[k.strip()] = v.strip()\n    return types.SimpleNamespace(**values)\n"]},
    {"name": "argparse_exit", "entry": "parse_args",
     "fields": {"tests": "import pytest\n\ndef test_ok():\n    assert parse_args(['--count', '3']) == (3, False)\n    assert parse_args(['--count', '1', '--verbose']) == (1, True)\n\ndef test_missing_count():\n    with pytest.raises(SystemExit) as info:\n        parse_args([])\n    assert info.value.code == 2\n"},
     "solution": "import argparse\n\ndef parse_args(argv):\n    p = argparse.ArgumentParser(prog='tool')\n    p.add_argument('--count', type=int, required=True)\n    p.add_argument('--verbose', action='store_true')\n    a = p.parse_args(argv)\n    return a.count, a.verbose\n",
     "variants": ["import argparse\nfrom typing import List, Tuple\n\n\ndef parse_args(argv: List[str]) -> Tuple[int, bool]:\n    parser = argparse.ArgumentParser(description='A tool.')\n    parser.add_argument('-c', '--count', dest='count', type=int, required=True, help='how many')\n    parser.add_argument('-v', '--verbose', dest='verbose', default=False, action='store_true')\n    ns = parser.parse_args(argv)\n    return (ns.count, ns.verbose)\n"]},
]
