// `warpscope profile` (written next).
