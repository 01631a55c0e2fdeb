/**
 * Crash detection: each instance listens on a TCP port, and an instance that waits behind another's node
 * (the next in a leader latch's line, a lock waiter) stays connected to that instance; a connection closed
 * by the peer's kernel, whose reconnects are then refused, is a death, and the survivor ends the dead
 * session with its id and password so the normal path hands leadership and locks on in milliseconds.
 * {@link dev.zkspring.crash.CrashDetector} is the public face; the listener, the links and the session
 * cards are package-private.
 */
@NullMarked
package dev.zkspring.crash;

import org.jspecify.annotations.NullMarked;
