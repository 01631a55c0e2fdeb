package dev.zkspring.config;

import java.util.concurrent.Callable;

import org.apache.curator.drivers.OperationTrace;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * The config center's reads go straight to ZooKeeper (a multi-read is one consistent snapshot), past
 * Curator's builders and so past its tracing: these report them to the client's tracer driver as Curator
 * would, named {@code {operation}-Direct}, so request metrics see configuration loads too.
 */
final class TracedRequests {

	private TracedRequests() {
	}

	static <T> T call(CuratorFramework client, String operation, Callable<T> request) throws Exception {
		OperationTrace trace = new OperationTrace(operation + "-Direct", client.getZookeeperClient().getTracerDriver());
		try {
			T result = request.call();
			trace.setReturnCode(KeeperException.Code.OK.intValue()).commit();
			return result;
		}
		catch (KeeperException ex) {
			trace.setReturnCode(ex.code().intValue()).commit();
			throw ex;
		}
	}

}
