package io.arcon.tss.lang;

/** One parsed TSS statement; the AST is closed so that consumers can switch exhaustively. */
public sealed interface Statement
    permits ShowApps, DescribeApp, CreateTss, ShowTss, DescribeTss, DropTss, DropApp {}
