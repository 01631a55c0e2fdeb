package dev.zkspring.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * Every observation zk-spring makes, with its keys: the one list docs/observability.md is checked
 * against (ObservabilityDocTests).
 * It runs past 300 lines because it is one constant and one key enum per observation: the one list the
 * docs are checked against.
 */
public enum ZkObservationDocumentation implements ObservationDocumentation {

	/** The observation of the wait to take a {@code @ZkLock} or {@code ZkLockTemplate} lock. */
	LOCK_ACQUISITION {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultZkLockAcquisitionConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LockAcquisitionKeys.lowCardinality();
		}

	},

	/** The observation of the hold of a lock, with the guarded body inside its scope. */
	LOCK_HOLD {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultZkLockHoldConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LockHoldKeys.lowCardinality();
		}

	},

	/** The observation of one run of a Quartz job on the leader-gated scheduler; a new trace. */
	JOB_RUN {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultZkJobRunConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return JobRunKeys.lowCardinality();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return JobRunKeys.highCardinality();
		}

	},

	/** The observation of one call of a {@code @LeaderOnly} method, run or skipped. */
	LEADER_ONLY {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultZkLeaderOnlyConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LeaderOnlyKeys.lowCardinality();
		}

	},

	/** The observation of one leadership term of this instance, from granted to revoked. */
	LEADERSHIP_TERM {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultZkLeadershipTermConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LeadershipTermKeys.lowCardinality();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return LeadershipTermKeys.highCardinality();
		}

	},

	/** The observation of one configuration refresh: the change checked, then applied or refused. */
	CONFIG_REFRESH {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultZkRefreshConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return RefreshKeys.lowCardinality();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return RefreshKeys.highCardinality();
		}

	},

	/** The observation of one write of a ConfigPublisher or ConfigCanaries inside an application. */
	CONFIG_PUBLISH {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultZkPublishConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return PublishKeys.lowCardinality();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return PublishKeys.highCardinality();
		}

	};

	/** The keys of {@code zk.lock.acquisition}. */
	enum LockAcquisitionKeys implements KeyName {

		LOCK {
			@Override
			public String asString() {
				return "lock";
			}
		},

		MODE {
			@Override
			public String asString() {
				return "mode";
			}
		},

		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		};

		static KeyName[] lowCardinality() {
			return new KeyName[] { LOCK, MODE, OUTCOME };
		}

	}

	/** The keys of {@code zk.lock.holding}. */
	enum LockHoldKeys implements KeyName {

		LOCK {
			@Override
			public String asString() {
				return "lock";
			}
		},

		MODE {
			@Override
			public String asString() {
				return "mode";
			}
		},

		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		};

		static KeyName[] lowCardinality() {
			return new KeyName[] { LOCK, MODE, OUTCOME };
		}

	}

	/** The keys of {@code zk.job.run}. */
	enum JobRunKeys implements KeyName {

		JOB_GROUP {
			@Override
			public String asString() {
				return "job.group";
			}
		},

		JOB_NAME {
			@Override
			public String asString() {
				return "job.name";
			}
		},

		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		},

		EPOCH {
			@Override
			public String asString() {
				return "zk.leader.epoch";
			}
		};

		static KeyName[] lowCardinality() {
			return new KeyName[] { JOB_GROUP, JOB_NAME, OUTCOME };
		}

		static KeyName[] highCardinality() {
			return new KeyName[] { EPOCH };
		}

	}

	/** The keys of {@code zk.leader.only}. */
	enum LeaderOnlyKeys implements KeyName {

		METHOD {
			@Override
			public String asString() {
				return "method";
			}
		},

		GROUP {
			@Override
			public String asString() {
				return "group";
			}
		},

		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		};

		static KeyName[] lowCardinality() {
			return new KeyName[] { METHOD, GROUP, OUTCOME };
		}

	}

	/** The keys of {@code zk.leader.term}. */
	enum LeadershipTermKeys implements KeyName {

		GROUP {
			@Override
			public String asString() {
				return "group";
			}
		},

		REASON {
			@Override
			public String asString() {
				return "reason";
			}
		},

		EPOCH {
			@Override
			public String asString() {
				return "zk.leader.epoch";
			}
		};

		static KeyName[] lowCardinality() {
			return new KeyName[] { GROUP, REASON };
		}

		static KeyName[] highCardinality() {
			return new KeyName[] { EPOCH };
		}

	}

	/** The keys of {@code zk.config.refresh}. */
	enum RefreshKeys implements KeyName {

		CONTEXTS {
			@Override
			public String asString() {
				return "contexts";
			}
		},

		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		},

		KEYS_CHANGED {
			@Override
			public String asString() {
				return "keys.changed";
			}
		};

		static KeyName[] lowCardinality() {
			return new KeyName[] { CONTEXTS, OUTCOME };
		}

		static KeyName[] highCardinality() {
			return new KeyName[] { KEYS_CHANGED };
		}

	}

	/** The keys of {@code zk.config.publish}. */
	enum PublishKeys implements KeyName {

		CONTEXT {
			@Override
			public String asString() {
				return "context";
			}
		},

		OPERATION {
			@Override
			public String asString() {
				return "operation";
			}
		},

		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		},

		REVISION {
			@Override
			public String asString() {
				return "zk.config.revision";
			}
		};

		static KeyName[] lowCardinality() {
			return new KeyName[] { CONTEXT, OPERATION, OUTCOME };
		}

		static KeyName[] highCardinality() {
			return new KeyName[] { REVISION };
		}

	}

}
