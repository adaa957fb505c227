package io.arcon.tss.server;

/**
 * A file an app wrote for a version and reported when it sealed it.
 *
 * @param state the state whose rows it holds
 * @param path where the app put it
 * @param rows how many rows it holds
 */
record SealedFile(String state, String path, long rows) {}
