package dev.zkspring.leader.term;

import java.util.function.Function;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * What an election hands the parts above it beyond its public API: the records it keeps in ZooKeeper and a
 * graceful step back. Exists so the public entry points that wire those parts ({@code dev.zkspring.jobs}) can
 * live outside the election's package without the election's public API growing and without an import back
 * into it: the election's class installs its access here once, when it is loaded, and this package never names
 * the election's type.
 * @param <E> the election's type
 */
public final class ElectionAccess<E> {

	private static volatile @Nullable ElectionAccess<?> installed;

	private final Class<E> type;

	private final Function<E, LeaderRecords> records;

	private final Predicate<E> stepBack;

	private ElectionAccess(Class<E> type, Function<E, LeaderRecords> records, Predicate<E> stepBack) {
		this.type = type;
		this.records = records;
		this.stepBack = stepBack;
	}

	/**
	 * Called once by the election's class, when it is loaded.
	 * @param type the election's type
	 * @param records the records an election keeps, fenced by its leadership
	 * @param stepBack hands leadership over gracefully and stays in the election; false when not leading
	 */
	public static <E> void install(Class<E> type, Function<E, LeaderRecords> records, Predicate<E> stepBack) {
		installed = new ElectionAccess<>(type, records, stepBack);
	}

	/**
	 * The access of the election's type, loading that class first when needed.
	 * @param type the election's type
	 * @return its access
	 */
	public static <E> ElectionAccess<E> of(Class<E> type) {
		ElectionAccess<?> access = installed;
		if (access == null) {
			try {
				Class.forName(type.getName(), true, type.getClassLoader());
			}
			catch (ClassNotFoundException ex) {
				throw new IllegalStateException("Cannot load " + type.getName(), ex);
			}
			access = installed;
		}
		if (access == null || access.type != type) {
			throw new IllegalStateException(type.getName() + " has not installed its access");
		}
		@SuppressWarnings("unchecked")
		ElectionAccess<E> typed = (ElectionAccess<E>) access;
		return typed;
	}

	/** The records the election keeps in ZooKeeper, each write fenced by its leadership. */
	public LeaderRecords records(E election) {
		return this.records.apply(election);
	}

	/** Hand leadership over gracefully and stay in the election; false when not leading or already doing so. */
	public boolean stepBack(E election) {
		return this.stepBack.test(election);
	}

}
