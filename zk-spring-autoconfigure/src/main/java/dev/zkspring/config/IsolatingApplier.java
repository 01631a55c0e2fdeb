package dev.zkspring.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

/**
 * Puts a change through a {@link ZkConfigApplier} so that one bad document cannot block the others.
 * A refusal is blamed on a context whose document changed, never on one that is in force unchanged
 * (the key that broke may live in an unchanged document and take its value, through a placeholder,
 * from the changed one): when several changed, each is held back in turn and the rest tried, and the
 * one whose holding back lets the rest apply is the culprit. A culprit is reported and held back, and
 * the rest applied. A refused candidate changes nothing, so the trials are safe.
 */
final class IsolatingApplier {

	private static final Log logger = LogFactory.getLog(ZkConfigInitializer.class);

	private final ZkConfigApplier applier;

	private final ConfigurableEnvironment environment;

	private final ZkConfigCandidate.CompositeSwap swap;

	private final RefusedDocuments refused;

	IsolatingApplier(ZkConfigApplier applier, ConfigurableEnvironment environment, ZkConfigCandidate.CompositeSwap swap,
			RefusedDocuments refused) {
		this.applier = applier;
		this.environment = environment;
		this.swap = swap;
		this.refused = refused;
	}

	/**
	 * Apply what can be applied of the latest sources.
	 * @param current the sources in force
	 * @param sources the latest sources
	 * @param reporter told of each refusal: the candidate, why, the znode blamed and its document
	 * ({@code null} when the change is refused as a whole)
	 * @return the sources now in force, or {@code null} when nothing was applied
	 */
	@Nullable List<PropertySource<?>> apply(List<PropertySource<?>> current, List<PropertySource<?>> sources,
			Reporter reporter) {
		Set<String> heldBack = new HashSet<>();
		while (true) {
			ZkConfigCandidate candidate = candidate(current, sources);
			Refusal refusal = applyWith(candidate);
			if (refusal == null) {
				candidate.swap();
				return sources;
			}
			List<ZnodePropertySource> suspects = suspects(candidate, refusal, current, sources, heldBack);
			if (suspects.isEmpty()) {
				// no changed document left to hold back: the change is refused as a whole
				ZnodePropertySource located = (refusal.key() != null) ? candidate.locate(refusal.key()) : null;
				reporter.report(candidate, refusal, (located != null) ? located.getZnode() : null, null);
				return null;
			}
			ZnodePropertySource culprit = suspects.get(0);
			List<PropertySource<?>> applied = null;
			for (int i = 0; i < suspects.size() && suspects.size() > 1; i++) {
				List<PropertySource<?>> rest = RefusedDocuments.holdBack(sources, suspects.get(i).getZnode(), current);
				ZkConfigCandidate trial = candidate(current, rest);
				if (!trial.getChanges().isEmpty() && applyWith(trial) == null) {
					trial.swap();
					culprit = suspects.get(i);
					applied = rest;
					break;
				}
			}
			reporter.report(candidate, refusal, culprit.getZnode(), culprit);
			heldBack.add(culprit.getZnode());
			if (applied != null) {
				return applied;
			}
			sources = RefusedDocuments.holdBack(sources, culprit.getZnode(), current);
			if (candidate(current, sources).getChanges().isEmpty()) {
				return null;
			}
		}
	}

	private ZkConfigCandidate candidate(List<PropertySource<?>> current, List<PropertySource<?>> sources) {
		List<ZkConfigChange> changes = ZkConfigChange.between(LocatorChain.effective(current),
				LocatorChain.effective(sources));
		return new ZkConfigCandidate(this.environment, current, sources, changes, this.swap);
	}

	/**
	 * The changed documents that may have caused the refusal, the likeliest first: one refused before,
	 * then the one holding the key that broke, then the others in precedence order.
	 */
	private List<ZnodePropertySource> suspects(ZkConfigCandidate candidate, Refusal refusal,
			List<PropertySource<?>> current, List<PropertySource<?>> sources, Set<String> heldBack) {
		List<ZnodePropertySource> changed = new ArrayList<>();
		for (PropertySource<?> source : sources) {
			if (source instanceof ZnodePropertySource document && !heldBack.contains(document.getZnode())) {
				ZnodePropertySource inForce = RefusedDocuments.documentOf(current, document.getZnode());
				if (inForce == null || !RefusedDocuments.same(inForce, document)) {
					changed.add(document);
				}
			}
		}
		ZnodePropertySource holder = (refusal.key() != null) ? candidate.locate(refusal.key()) : null;
		List<ZnodePropertySource> ordered = new ArrayList<>();
		changed.stream().filter(this.refused::isRefused).forEach(ordered::add);
		changed.stream().filter((document) -> document == holder && !ordered.contains(document)).forEach(ordered::add);
		changed.stream().filter((document) -> !ordered.contains(document)).forEach(ordered::add);
		return ordered;
	}

	/**
	 * Let the applier validate and apply.
	 * @return {@code null} when applied, else why it refused (nothing changed)
	 */
	private @Nullable Refusal applyWith(ZkConfigCandidate candidate) {
		try {
			this.applier.apply(candidate);
			return null;
		}
		catch (ZkConfigChangeRejectedException ex) {
			return new Refusal(ex.getKey(), ex.getTarget(), ex.getReason());
		}
		catch (RuntimeException ex) {
			if (candidate.isSwapped()) {
				logger.warn("Applying a configuration change failed after it was put in force (" + ex.getClass().getName()
						+ ")");
				return null;
			}
			return new Refusal(null, null, "applying it failed (" + ex.getClass().getName() + ")");
		}
	}

	/** Why an applier refused a candidate. */
	record Refusal(@Nullable String key, @Nullable String target, String reason) {

	}

	/** Reports a refusal. */
	@FunctionalInterface
	interface Reporter {

		void report(ZkConfigCandidate candidate, Refusal refusal, @Nullable String znode,
				@Nullable ZnodePropertySource document);

	}

}
