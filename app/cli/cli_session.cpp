// `warpscope session show` (written next).
