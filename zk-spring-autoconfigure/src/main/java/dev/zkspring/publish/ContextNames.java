package dev.zkspring.publish;

import org.apache.zookeeper.common.PathUtils;

/** What a context name may be: one znode name under the config root, nothing that walks the tree. */
final class ContextNames {

	private ContextNames() {
	}

	static String check(String context) {
		if (context == null || context.isEmpty()) {
			throw invalid("''", "it is empty");
		}
		if (context.equals(".") || context.equals("..")) {
			throw invalid(context, "'.' and '..' are not context names");
		}
		if (context.indexOf('/') >= 0) {
			throw invalid(context, "it contains '/'; a context is one node directly under the root, such as orders "
					+ "or orders,prod");
		}
		for (int i = 0; i < context.length(); i++) {
			char c = context.charAt(i);
			if (Character.isISOControl(c) || (c >= '\ud800' && c <= '\uf8ff') || (c >= '\ufff0')) {
				throw invalid(printable(context), "it contains a control or reserved character at index " + i);
			}
		}
		try {
			PathUtils.validatePath("/" + context);
		}
		catch (IllegalArgumentException ex) {
			throw invalid(context, "it is not a valid znode name");
		}
		return context;
	}

	private static String printable(String context) {
		StringBuilder builder = new StringBuilder();
		context.codePoints().forEach((c) -> builder.append(Character.isISOControl(c) ? "?" : Character.toString(c)));
		return builder.toString();
	}

	private static PublishException invalid(String context, String why) {
		return new PublishException(PublishException.Reason.INVALID,
				"context '" + context + "' is not a valid context name: " + why);
	}

}
