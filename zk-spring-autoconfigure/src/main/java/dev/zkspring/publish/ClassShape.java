package dev.zkspring.publish;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.asm.AnnotationVisitor;
import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.FieldVisitor;
import org.springframework.asm.Label;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.asm.RecordComponentVisitor;
import org.springframework.asm.Type;

/**
 * What binding needs to know of one class, read from its class file with ASM (as the configuration
 * processor reads sources): its {@code @ConfigurationProperties} prefix, its enum constants, its setters,
 * getters, constructors and record components. The class is never loaded, so none of its code runs.
 * <p>
 * Over 300 lines because the ASM visitors that fill it are nested here, most of them inner classes writing
 * its fields; each is short, and apart they would need the fields opened up.
 */
final class ClassShape {

	static final String CONFIGURATION_PROPERTIES = "Lorg/springframework/boot/context/properties/ConfigurationProperties;";

	private static final String CONSTRUCTOR_BINDING = "Lorg/springframework/boot/context/properties/bind/ConstructorBinding;";

	private static final String NAME = "Lorg/springframework/boot/context/properties/bind/Name;";

	private static final String AUTOWIRED = "Lorg/springframework/beans/factory/annotation/Autowired;";

	/** The binary name ({@code com.acme.Shop$Owner}). */
	String name = "";

	@Nullable String superName;

	boolean isEnum;

	boolean isRecord;

	boolean isInterface;

	/** The prefix of {@code @ConfigurationProperties} on the class, if it has one. */
	@Nullable String prefix;

	/** Prefixes of {@code @ConfigurationProperties} on {@code @Bean} methods, with the type each returns. */
	final Map<String, TypeRef> beanMethodPrefixes = new LinkedHashMap<>();

	final List<String> enumConstants = new ArrayList<>();

	/** JavaBean properties with a setter, by Java name. */
	final Map<String, TypeRef> setters = new LinkedHashMap<>();

	/** JavaBean properties with a getter, by Java name. */
	final Map<String, TypeRef> getters = new LinkedHashMap<>();

	final List<Constructor> constructors = new ArrayList<>();

	final List<Parameter> recordComponents = new ArrayList<>();

	private ClassShape() {
	}

	static ClassShape read(byte[] classFile) {
		ClassShape shape = new ClassShape();
		new ClassReader(classFile).accept(shape.new Reader(), ClassReader.SKIP_FRAMES);
		return shape;
	}

	/** The constructor the binder would bind through, or {@code null} for JavaBean binding. */
	@Nullable Constructor bindingConstructor() {
		if (this.isRecord) {
			for (Constructor constructor : this.constructors) {
				if (constructor.parameters.size() == this.recordComponents.size()) {
					List<Parameter> named = new ArrayList<>();
					for (int i = 0; i < this.recordComponents.size(); i++) {
						Parameter component = this.recordComponents.get(i);
						Parameter parameter = constructor.parameters.get(i);
						named.add(new Parameter((parameter.annotatedName != null) ? parameter.annotatedName
								: component.name, parameter.annotatedName, component.type));
					}
					return new Constructor(named, true, false);
				}
			}
		}
		for (Constructor constructor : this.constructors) {
			if (constructor.annotated) {
				return constructor;
			}
		}
		if (this.constructors.size() == 1 && !this.constructors.get(0).parameters.isEmpty()
				&& !this.constructors.get(0).autowired) {
			return this.constructors.get(0);
		}
		return null;
	}

	/** One constructor: its parameters in order, and whether it is marked for (or against) binding. */
	record Constructor(List<Parameter> parameters, boolean annotated, boolean autowired) {
	}

	/**
	 * A constructor parameter or record component.
	 * @param name its name in the class file ({@code null} when compiled without {@code -parameters} or debug
	 * information), or its {@code @Name}
	 */
	record Parameter(@Nullable String name, @Nullable String annotatedName, TypeRef type) {
	}

	private final class Reader extends ClassVisitor {

		Reader() {
			super(Opcodes.ASM9);
		}

		@Override
		public void visit(int version, int access, String name, @Nullable String signature, @Nullable String superName,
				String @Nullable [] interfaces) {
			ClassShape.this.name = name.replace('/', '.');
			ClassShape.this.superName = (superName != null) ? superName.replace('/', '.') : null;
			ClassShape.this.isEnum = (access & Opcodes.ACC_ENUM) != 0;
			ClassShape.this.isInterface = (access & Opcodes.ACC_INTERFACE) != 0;
			ClassShape.this.isRecord = "java/lang/Record".equals(superName);
		}

		@Override
		public @Nullable AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
			if (CONFIGURATION_PROPERTIES.equals(descriptor)) {
				ClassShape.this.prefix = "";
				return new PrefixReader((prefix) -> ClassShape.this.prefix = prefix);
			}
			return null;
		}

		@Override
		public @Nullable RecordComponentVisitor visitRecordComponent(String name, String descriptor,
				@Nullable String signature) {
			ClassShape.this.recordComponents
				.add(new Parameter(name, null, TypeRef.signature((signature != null) ? signature : descriptor)));
			return null;
		}

		@Override
		public @Nullable FieldVisitor visitField(int access, String name, String descriptor, @Nullable String signature,
				@Nullable Object value) {
			if ((access & Opcodes.ACC_ENUM) != 0) {
				ClassShape.this.enumConstants.add(name);
			}
			return null;
		}

		@Override
		public @Nullable MethodVisitor visitMethod(int access, String name, String descriptor,
				@Nullable String signature, String @Nullable [] exceptions) {
			boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
			if ((access & Opcodes.ACC_SYNTHETIC) != 0 || (access & Opcodes.ACC_BRIDGE) != 0) {
				return null;
			}
			String types = (signature != null) ? signature : descriptor;
			if ("<init>".equals(name)) {
				return new ConstructorReader(descriptor, TypeRef.parameters(types));
			}
			boolean isPublic = (access & Opcodes.ACC_PUBLIC) != 0;
			if (!isStatic && isPublic) {
				List<TypeRef> parameters = TypeRef.parameters(types);
				if (name.length() > 3 && name.startsWith("set") && parameters.size() == 1) {
					ClassShape.this.setters.put(property(name.substring(3)), parameters.get(0));
				}
				else if (parameters.isEmpty() && !"getClass".equals(name)) {
					if (name.length() > 3 && name.startsWith("get")) {
						ClassShape.this.getters.put(property(name.substring(3)), TypeRef.returned(types));
					}
					else if (name.length() > 2 && name.startsWith("is")) {
						ClassShape.this.getters.put(property(name.substring(2)), TypeRef.returned(types));
					}
				}
			}
			return new BeanMethodReader(TypeRef.returned(types));
		}

		private static String property(String suffix) {
			if (suffix.length() > 1 && Character.isUpperCase(suffix.charAt(0)) && Character.isUpperCase(suffix.charAt(1))) {
				return suffix;
			}
			return Character.toLowerCase(suffix.charAt(0)) + suffix.substring(1);
		}

	}

	/** {@code @ConfigurationProperties} on a {@code @Bean} method: the prefix of the object it returns. */
	private final class BeanMethodReader extends MethodVisitor {

		private final TypeRef returned;

		BeanMethodReader(TypeRef returned) {
			super(Opcodes.ASM9);
			this.returned = returned;
		}

		@Override
		public @Nullable AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
			if (CONFIGURATION_PROPERTIES.equals(descriptor)) {
				ClassShape.this.beanMethodPrefixes.put("", this.returned);
				return new PrefixReader((prefix) -> {
					ClassShape.this.beanMethodPrefixes.remove("");
					ClassShape.this.beanMethodPrefixes.put(prefix, this.returned);
				});
			}
			return null;
		}

	}

	/** A constructor's parameter names: from {@code MethodParameters}, else the local variable table, else none. */
	private final class ConstructorReader extends MethodVisitor {

		private final List<TypeRef> types;

		private final List<String> fromParameters = new ArrayList<>();

		private final Map<Integer, String> fromLocals = new LinkedHashMap<>();

		private final Map<Integer, String> annotatedNames = new LinkedHashMap<>();

		private final int[] slots;

		private final int descriptorCount;

		private boolean annotated;

		private boolean autowired;

		ConstructorReader(String descriptor, List<TypeRef> types) {
			super(Opcodes.ASM9);
			this.types = types;
			Type[] arguments = Type.getArgumentTypes(descriptor);
			this.descriptorCount = arguments.length;
			this.slots = new int[arguments.length];
			int slot = 1;
			for (int i = 0; i < arguments.length; i++) {
				this.slots[i] = slot;
				slot += arguments[i].getSize();
			}
		}

		@Override
		public @Nullable AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
			this.annotated |= CONSTRUCTOR_BINDING.equals(descriptor);
			this.autowired |= AUTOWIRED.equals(descriptor);
			return null;
		}

		@Override
		public @Nullable AnnotationVisitor visitParameterAnnotation(int parameter, String descriptor, boolean visible) {
			if (NAME.equals(descriptor)) {
				return new PrefixReader((name) -> this.annotatedNames.put(parameter, name));
			}
			return null;
		}

		@Override
		public void visitParameter(@Nullable String name, int access) {
			this.fromParameters.add(((access & (Opcodes.ACC_SYNTHETIC | Opcodes.ACC_MANDATED)) != 0) ? "" : name);
		}

		@Override
		public void visitLocalVariable(String name, String descriptor, @Nullable String signature, Label start,
				Label end, int index) {
			this.fromLocals.putIfAbsent(index, name);
		}

		@Override
		public void visitEnd() {
			List<String> names = new ArrayList<>();
			if (!this.fromParameters.isEmpty()) {
				this.fromParameters.stream().filter((name) -> !"".equals(name)).forEach(names::add);
			}
			else {
				for (int slot : this.slots) {
					names.add(this.fromLocals.get(slot));
				}
			}
			// a signature leaves out synthetic parameters (an inner class's outer instance): align from the end
			int offset = this.descriptorCount - this.types.size();
			List<Parameter> parameters = new ArrayList<>();
			for (int i = 0; i < this.types.size(); i++) {
				int index = names.size() - this.types.size() + i;
				String name = (index >= 0 && index < names.size()) ? names.get(index) : null;
				String annotatedName = this.annotatedNames.get(i);
				if (annotatedName == null && offset > 0) {
					annotatedName = this.annotatedNames.get(i + offset);
				}
				parameters.add(new Parameter((annotatedName != null) ? annotatedName : name, annotatedName,
						this.types.get(i)));
			}
			ClassShape.this.constructors.add(new Constructor(parameters, this.annotated, this.autowired));
		}

	}

	/** Reads the {@code value}/{@code prefix} of {@code @ConfigurationProperties}, or the value of {@code @Name}. */
	private static final class PrefixReader extends AnnotationVisitor {

		private final java.util.function.Consumer<String> target;

		PrefixReader(java.util.function.Consumer<String> target) {
			super(Opcodes.ASM9);
			this.target = target;
		}

		@Override
		public void visit(@Nullable String name, Object value) {
			if (("value".equals(name) || "prefix".equals(name)) && value instanceof String text && !text.isEmpty()) {
				this.target.accept(text);
			}
		}

	}

}
