package dev.zkspring.observation;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.zkspring.publish.Publication;
import dev.zkspring.publish.PublishException;
import dev.zkspring.publish.PublishInstrumentation;
import dev.zkspring.publish.Revision;

/**
 * A write of a ConfigPublisher or ConfigCanaries inside an application as a {@code zk.config.publish}
 * observation: the context's name, the operation and the outcome, never a document, key or value.
 */
final class PublishObservations implements PublishInstrumentation {

	private static final ZkPublishConvention DEFAULT = new DefaultZkPublishConvention();

	private final ObservationRegistry registry;

	private final @Nullable ZkPublishConvention convention;

	PublishObservations(ObservationRegistry registry, @Nullable ZkPublishConvention convention) {
		this.registry = registry;
		this.convention = convention;
	}

	@Override
	public <T> T observe(String operation, @Nullable String contextName, boolean dryRun, Write<T> write)
			throws Exception {
		if (this.registry.isNoop()) {
			return write.run();
		}
		ZkPublishContext context = new ZkPublishContext(operation, (contextName != null) ? contextName : "none");
		Observation observation = Observation.createNotStarted(this.convention, DEFAULT, () -> context, this.registry)
			.start();
		try (Observation.Scope scope = observation.openScope()) {
			T result = write.run();
			ended(context, result, dryRun);
			return result;
		}
		catch (PublishException ex) {
			// a refusal is the publisher doing its job (nothing was written), not an error of the application
			context.setOutcome(ex.reason().name().toLowerCase(Locale.ROOT));
			throw ex;
		}
		catch (Exception | Error ex) {
			context.setOutcome("failed");
			observation.error(ex);
			throw ex;
		}
		finally {
			observation.stop();
		}
	}

	private static void ended(ZkPublishContext context, @Nullable Object result, boolean dryRun) {
		List<Publication> publications = (result instanceof Publication publication) ? List.of(publication)
				: (result instanceof List<?> list) ? list.stream()
					.filter(Publication.class::isInstance)
					.map(Publication.class::cast)
					.toList() : List.of();
		if (result instanceof List<?>) {
			context.setContext(publications.isEmpty() ? "none"
					: publications.stream().map(Publication::context).sorted().collect(Collectors.joining(",")));
		}
		boolean written = (result instanceof Revision) || publications.stream().anyMatch(Publication::written);
		context.setOutcome(dryRun ? "dry_run" : written ? "written" : "unchanged");
		if (result instanceof Revision revision) {
			context.setRevision(String.valueOf(revision.revision()));
		}
		publications.stream()
			.filter(Publication::written)
			.mapToLong(Publication::revision)
			.max()
			.ifPresent((revision) -> context.setRevision(String.valueOf(revision)));
	}

}
