package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.datsim.core.param.ParamSpec;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.NamedValues;

/**
 * Renders the JSON Schema (draft 2020-12) of scenario files from the call catalogue and the parameter catalogue, so
 * editors can complete and check scenarios. The schema describes shapes; the loader remains the judge (it also checks
 * references, units and the topology).
 */
public final class SchemaGenerator {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SchemaGenerator() {
    }

    /** Returns the schema as indented JSON text ending with a newline. */
    public static String render() {
        try {
            return MAPPER.writeValueAsString(schema()).replace("\r\n", "\n") + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Returns the schema as a JSON tree. */
    public static ObjectNode schema() {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        root.put("$id", "https://datsim.invalid/scenario.schema.json");
        root.put("title", "datsim scenario");
        root.put("type", "object");
        root.put("additionalProperties", false);
        root.putArray("required").add("scenario").add("fabric").add("processes");
        ObjectNode props = root.putObject("properties");
        props.putObject("$schema").put("type", "string");
        props.putObject("scenario").put("type", "string").put("description", "The scenario's name.");
        props.putObject("description").put("type", "string");
        props.putObject("seed").put("type", "integer").put("description", "Random seed (default 1).");
        ObjectNode vars = props.putObject("vars");
        vars.put("type", "object").put("description", "Scenario variables: whole numbers or sizes, usable as $name"
                + " in expressions and references of every process (a sweep's axes can set them).");
        vars.putObject("propertyNames").put("pattern", Patterns.NAME);
        ArrayNode varOf = vars.putObject("additionalProperties").putArray("oneOf");
        varOf.addObject().put("type", "integer");
        varOf.addObject().put("type", "string").put("pattern", Patterns.SIZE);
        props.set("fabric", fabric());
        ObjectNode limits = props.putObject("limits");
        limits.put("type", "object").put("additionalProperties", false);
        ObjectNode lp = limits.putObject("properties");
        lp.putObject("max_events").put("type", "integer").put("minimum", 1);
        lp.set("max_time", time());
        ObjectNode workload = props.putObject("workload");
        workload.put("type", "object").put("description", "Generated flows (distribution, load, duration, start,"
                + " pattern, operation, ideal_fct) or HPCC's flow file (hpcc_flows); see docs/workloads.md.");
        ObjectNode processes = props.putObject("processes");
        processes.put("type", "array");
        ObjectNode process = processes.putObject("items");
        process.put("type", "object").put("additionalProperties", false);
        process.putArray("required").add("name").add("calls");
        ObjectNode pp = process.putObject("properties");
        pp.putObject("name").put("type", "string").put("pattern", Patterns.NAME);
        pp.putObject("host").put("type", "string");
        ObjectNode except = MAPPER.createObjectNode();
        except.put("type", "object").put("additionalProperties", false);
        except.putObject("properties").putObject("all_except").put("type", "array").putObject("items")
                .put("type", "string");
        ObjectNode hostList = MAPPER.createObjectNode();
        hostList.put("type", "array").putObject("items").put("type", "string");
        ObjectNode star = MAPPER.createObjectNode();
        star.put("const", "*");
        ObjectNode hostsSchema = anyOf(star, hostList, except);
        hostsSchema.put("description", "A template: one process per host, named NAME_HOST, with $index and $count.");
        pp.set("hosts", hostsSchema);
        pp.putObject("description").put("type", "string");
        pp.set("start", time());
        ObjectNode calls = pp.putObject("calls");
        calls.put("type", "array");
        ArrayNode oneOf = calls.putObject("items").putArray("oneOf");
        ObjectNode defs = root.putObject("$defs");
        for (CallSpec spec : CallCatalog.all().values()) {
            oneOf.add(call(spec));
            defs.set("expect_" + spec.name(), expect(spec));
        }
        props.set("outcomes", outcomes());
        ObjectNode repeat = oneOf.addObject();
        repeat.put("title", "repeat");
        repeat.put("description", "Repeat the calls of the block \"repeat\" times, or while less than \"for\" of"
                + " simulated time has passed since the block began (an iteration begins only before the bound), or"
                + " until either ends; \"as\" names the loop variable (0, 1, ...).");
        repeat.put("type", "object").put("additionalProperties", false);
        repeat.putArray("required").add("calls");
        ArrayNode countOrTime = repeat.putArray("anyOf");
        countOrTime.addObject().putArray("required").add("repeat");
        countOrTime.addObject().putArray("required").add("for");
        ObjectNode rp = repeat.putObject("properties");
        rp.set("repeat", anyOf(type("integer"), refOrExpr("expression or reference")));
        ObjectNode bound = time();
        bound.put("description", "A time bound in simulated time from the moment the block begins, such as \"5s\".");
        rp.set("for", bound);
        rp.putObject("as").put("type", "string").put("pattern", Patterns.NAME);
        rp.putObject("comment").put("type", "string");
        rp.putObject("calls").put("$ref", "#/properties/processes/items/properties/calls");
        return root;
    }

    private static ObjectNode fabric() {
        ObjectNode f = MAPPER.createObjectNode();
        f.put("type", "object").put("additionalProperties", false);
        ObjectNode explicit = MAPPER.createObjectNode();
        explicit.putArray("required").add("hosts").add("links");
        ObjectNode generatedTopology = MAPPER.createObjectNode();
        generatedTopology.putArray("required").add("topology");
        f.set("oneOf", anyOf(explicit, generatedTopology).get("anyOf"));
        ObjectNode p = f.putObject("properties");
        p.set("topology", topology());
        ObjectNode names = MAPPER.createObjectNode();
        names.put("type", "array");
        names.putObject("items").put("type", "string").put("pattern", Patterns.NAME);
        ObjectNode generated = MAPPER.createObjectNode();
        generated.put("type", "object").put("additionalProperties", false);
        generated.putArray("required").add("prefix").add("count");
        generated.putObject("properties").putObject("prefix").put("type", "string");
        ((ObjectNode) generated.get("properties")).putObject("count").put("type", "integer").put("minimum", 1);
        p.set("hosts", anyOf(names.deepCopy().put("minItems", 1), generated));
        p.set("switches", names);
        ObjectNode linkList = MAPPER.createObjectNode();
        linkList.put("type", "array");
        ObjectNode link = linkList.putObject("items");
        ObjectNode starLinks = MAPPER.createObjectNode();
        starLinks.put("type", "object").put("additionalProperties", false);
        starLinks.putObject("properties").putObject("star").put("type", "string")
                .put("description", "Every host gets one link to this switch.");
        p.set("links", anyOf(linkList, starLinks));
        link.put("type", "object").put("additionalProperties", false);
        link.putArray("required").add("a").add("b");
        ObjectNode lp = link.putObject("properties");
        lp.putObject("a").put("type", "string");
        lp.putObject("b").put("type", "string");
        lp.putObject("bandwidth").put("type", "string").put("description", "For example \"100Gbps\".");
        lp.set("latency", time());
        ObjectNode preset = p.putObject("preset");
        preset.put("description", "A named set of parameters (`datsim presets`); params, host_params and link"
                + " attributes override it.");
        org.datsim.fabric.FabricPresets.names().forEach(preset.putArray("enum")::add);
        ObjectNode params = p.putObject("params");
        ObjectNode hostParams = p.putObject("host_params");
        hostParams.put("type", "object").put("description", "Per-host overrides: {\"HOST\": {\"param\": value}}.");
        hostParams.putObject("additionalProperties").put("$ref", "#/properties/fabric/properties/params");
        params.put("type", "object").put("additionalProperties", false);
        ObjectNode pprops = params.putObject("properties");
        for (ParamSpec spec : FabricParams.ALL) {
            ObjectNode one = pprops.putObject(spec.name());
            one.put("description", spec.description() + " (default " + spec.format(spec.defaultValue()) + ")");
            if (spec.kind() == ParamSpec.Kind.CHOICE) {
                ArrayNode e = one.putArray("enum");
                spec.choices().forEach(e::add);
            } else if (spec.kind() == ParamSpec.Kind.INT) {
                one.putArray("type").add("integer").add("string"); // the loader also takes "16"
            } else if (spec.kind() == ParamSpec.Kind.BOOL) {
                ArrayNode alts = one.putArray("anyOf"); // the loader also takes "true" and "false"
                alts.addObject().put("type", "boolean");
                alts.addObject().putArray("enum").add("true").add("false");
            } else if (spec.kind() == ParamSpec.Kind.BYTES) {
                one.putArray("type").add("string").add("integer");
            } else {
                one.put("type", "string");
            }
        }
        return f;
    }

    /** {@code fabric.topology}: exactly one generated topology (see TopologyReader). */
    private static ObjectNode topology() {
        ObjectNode t = MAPPER.createObjectNode();
        t.put("type", "object").put("additionalProperties", false).put("minProperties", 1).put("maxProperties", 1)
                .put("description", "A generated topology; hosts are named host_prefix + index (default h0, h1,"
                        + " ...). Replaces hosts, switches and links.");
        ObjectNode tp = t.putObject("properties");
        ObjectNode b2b = tp.putObject("back_to_back");
        b2b.put("type", "object").put("additionalProperties", false);
        b2b.putObject("properties").putObject("host_prefix").put("type", "string");
        ObjectNode single = tp.putObject("single_switch");
        single.put("type", "object").put("additionalProperties", false);
        single.putArray("required").add("hosts");
        ObjectNode sp = single.putObject("properties");
        sp.putObject("hosts").put("type", "integer").put("minimum", 1)
                .put("maximum", org.datsim.fabric.topology.TopologyBuilder.MAX_SINGLE_SWITCH_HOSTS);
        sp.putObject("host_prefix").put("type", "string");
        ObjectNode ft = tp.putObject("fat_tree");
        ft.put("type", "object").put("additionalProperties", false);
        ft.putArray("required").add("k");
        ObjectNode fp = ft.putObject("properties");
        fp.putObject("k").put("type", "integer").put("minimum", 2).put("multipleOf", 2)
                .put("maximum", org.datsim.fabric.topology.TopologyBuilder.MAX_K_TWO_LEVELS)
                .put("description", "Switch radix, even; at most "
                        + org.datsim.fabric.topology.TopologyBuilder.MAX_K_THREE_LEVELS + " with 3 levels.");
        fp.putObject("levels").put("type", "integer").put("minimum", 2).put("maximum", 3)
                .put("description", "3 (default): k-ary fat-tree of edge, aggregation and core switches; 2: leaf"
                        + " and spine.");
        fp.putObject("host_prefix").put("type", "string");
        return t;
    }

    private static ObjectNode pattern(String what, String regex) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("type", "string").put("pattern", regex).put("description", "A " + what + " such as \"1.5us\".");
        return n;
    }

    /** An expected number written as a comparison, such as ">= 4" or "!= $n". */
    private static ObjectNode comparison() {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("type", "string").put("pattern", Patterns.COMPARISON).put("description",
                "A comparison: !=, <, <=, > or >= and a number, reference or expression, such as \">= 4\".");
        return n;
    }

    private static ObjectNode time() {
        return pattern("time", Patterns.TIME);
    }

    private static ObjectNode refOrExpr(String what) {
        return pattern(what, Patterns.REF_OR_EXPR_START);
    }

    private static ObjectNode ref() {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("type", "string").put("pattern", Patterns.REF_START);
        return n;
    }

    private static ObjectNode anyOf(ObjectNode... alternatives) {
        ObjectNode n = MAPPER.createObjectNode();
        ArrayNode a = n.putArray("anyOf");
        for (ObjectNode x : alternatives) {
            a.add(x);
        }
        return n;
    }

    private static ObjectNode type(String t) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("type", t);
        return n;
    }

    private static ObjectNode names(NamedValues group) {
        ObjectNode n = MAPPER.createObjectNode();
        ArrayNode e = n.putArray("enum");
        group.names().forEach(e::add);
        return n;
    }

    private static ObjectNode flags(NamedValues group) {
        ObjectNode array = MAPPER.createObjectNode();
        array.put("type", "array");
        array.set("items", names(group));
        ObjectNode joined = MAPPER.createObjectNode();
        joined.put("type", "string").put("description", "One or more of " + group.names() + " joined by |.");
        return anyOf(type("integer"), joined, array);
    }

    /** Expected data whose every line is filled with one of several bytes (expectations only). */
    private static ObjectNode perLine() {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("type", "object").put("additionalProperties", false)
                .put("description", "Every line of `line` bytes, from the read's first byte, filled with one of the"
                        + " listed bytes (cache lines that may each be stale or fresh, rule 32).");
        n.putArray("required").add("fill_per_line").add("line").add("length");
        ObjectNode p = n.putObject("properties");
        ObjectNode fills = p.putObject("fill_per_line");
        fills.put("type", "array").put("minItems", 1);
        fills.putObject("items").put("type", "integer").put("minimum", 0).put("maximum", 255);
        p.putObject("line").put("type", "integer").put("minimum", 1).put("maximum", 1 << 30);
        p.set("length", anyOf(type("integer"), type("string")));
        return n;
    }

    private static ObjectNode data() {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("type", "object").put("additionalProperties", false);
        ObjectNode p = n.putObject("properties");
        p.putObject("text").put("type", "string");
        p.putObject("hex").put("type", "string").put("pattern", Patterns.HEX);
        ObjectNode byteValue = MAPPER.createObjectNode();
        byteValue.put("type", "integer").put("minimum", 0).put("maximum", 255);
        p.set("fill", anyOf(byteValue, refOrExpr("reference or expression")));
        p.set("length", anyOf(type("integer"), type("string")));
        return n;
    }

    private static ObjectNode argument(CallSpec.Arg a) {
        ObjectNode size = anyOf(type("integer"), type("string"));
        switch (a.type()) {
            case HANDLE:
                return anyOf(ref(), type("null"));
            case INT:
                return anyOf(type("integer"), refOrExpr("reference or expression"));
            case SIZE:
                return size;
            case FLAGS:
                return flags(a.flags());
            case TIMEOUT:
                ObjectNode infinite = MAPPER.createObjectNode();
                infinite.put("const", "DAT_TIMEOUT_INFINITE");
                ObjectNode us = MAPPER.createObjectNode();
                us.put("type", "integer").put("minimum", 0).put("description", "Microseconds.");
                return anyOf(us, infinite, refOrExpr("reference or expression (microseconds)"), time());
            case DURATION:
                return time();
            case STRING:
                return type("string");
            case HOST: {
                ObjectNode byIndex = MAPPER.createObjectNode();
                byIndex.put("type", "object").put("additionalProperties", false);
                byIndex.putArray("required").add("host_index");
                byIndex.putObject("properties").set("host_index", anyOf(type("integer"),
                        refOrExpr("reference or expression")));
                return anyOf(type("string"), byIndex);
            }
            case IOV: {
                ObjectNode n = MAPPER.createObjectNode();
                n.put("type", "array");
                ObjectNode seg = n.putObject("items");
                seg.put("type", "object").put("additionalProperties", false);
                seg.putArray("required").add("lmr").add("length");
                ObjectNode p = seg.putObject("properties");
                p.set("lmr", ref());
                p.set("offset", size.deepCopy());
                p.set("length", size.deepCopy());
                return n;
            }
            case RMR: {
                ObjectNode n = MAPPER.createObjectNode();
                n.put("type", "object").put("additionalProperties", false);
                n.putArray("required").add("rmr_context").add("address").add("length");
                ObjectNode p = n.putObject("properties");
                for (String k : ArgumentChecker.RMR_FIELDS) {
                    p.set(k, size.deepCopy());
                }
                return n;
            }
            case DATA:
                return data();
            case EP_ATTR: {
                ObjectNode n = MAPPER.createObjectNode();
                n.put("type", "object").put("additionalProperties", false);
                ObjectNode p = n.putObject("properties");
                for (String k : ArgumentChecker.EP_ATTR_SIZES) {
                    p.set(k, size.deepCopy());
                }
                for (String k : ArgumentChecker.EP_ATTR_FLAGS) {
                    p.set(k, flags(Dat.COMPLETION_FLAGS));
                }
                return n;
            }
            case SRQ_ATTR: {
                ObjectNode n = MAPPER.createObjectNode();
                n.put("type", "object").put("additionalProperties", false);
                ObjectNode p = n.putObject("properties");
                for (String k : CallCatalog.SRQ_ATTR_FIELDS) {
                    p.set(k, size.deepCopy());
                }
                return n;
            }
            default:
                throw new IllegalStateException(a.type().name());
        }
    }

    private static ObjectNode call(CallSpec spec) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("title", spec.name());
        n.put("description", spec.summary());
        n.put("type", "object").put("additionalProperties", false);
        ArrayNode req = n.putArray("required").add("call");
        ObjectNode p = n.putObject("properties");
        p.putObject("call").put("const", spec.name());
        p.putObject("comment").put("type", "string");
        if (spec.outKind() != null) {
            p.putObject("out").put("type", "string").put("pattern", Patterns.INDEXED_NAME)
                    .put("description", "Binds the " + spec.outKind() + " to a name.");
        }
        for (CallSpec.Arg a : spec.args().values()) {
            p.set(a.name(), argument(a));
            if (a.required()) {
                req.add(a.name());
            }
        }
        p.putObject("expect").put("$ref", "#/$defs/expect_" + spec.name());
        ObjectNode observeName = MAPPER.createObjectNode();
        observeName.put("type", "string").put("pattern", Patterns.INDEXED_NAME)
                .put("description", "Records what the call observed under this name (NAME[$i] in a repeat block),"
                        + " for the scenario's \"outcomes\".");
        ObjectNode observeFields = MAPPER.createObjectNode();
        observeFields.put("type", "object").put("minProperties", 1).put("description", "dat_evd_wait and"
                + " dat_evd_dequeue: observation names, each recording one field of the event taken.");
        ObjectNode fieldEnum = observeFields.putObject("additionalProperties");
        ArrayNode fieldNames = fieldEnum.putArray("enum");
        ObserveKind.FIELDS.keySet().forEach(fieldNames::add);
        p.set("observe", anyOf(observeName, observeFields));
        p.putObject("name").put("type", "string").put("pattern", Patterns.NAME)
                .put("description", "Names the step, for other processes' \"after\".");
        ObjectNode afterOne = MAPPER.createObjectNode();
        afterOne.put("type", "string").put("pattern", Patterns.AFTER);
        ObjectNode afterMany = MAPPER.createObjectNode();
        afterMany.put("type", "array").put("minItems", 1).set("items", afterOne.deepCopy());
        ObjectNode after = anyOf(afterOne, afterMany);
        after.put("description", "\"PROCESS/STEP\": the call starts once that process has finished its step"
                + " of that name.");
        p.set("after", after);
        return n;
    }

    /** A call's "expect": its keys, each a value or {"one_of": [...]}, and the conditional if/then/else. */
    private static ObjectNode expect(CallSpec spec) {
        ObjectNode expect = MAPPER.createObjectNode();
        expect.put("type", "object").put("additionalProperties", false);
        ObjectNode ep = expect.putObject("properties");
        ObjectNode ret = MAPPER.createObjectNode();
        ret.put("type", "string").put("description", "A DAT_RETURN type or subtype name, \"any\", or \"any_error\".");
        ep.set("ret", oneOf(ret));
        for (String k : spec.expectKeys()) {
            switch (k) {
                case "event":
                    ep.set(k, oneOf(names(Dat.EVENTS)));
                    break;
                case "status": {
                    ObjectNode statuses = names(Dat.DTO_STATUS);
                    ((ArrayNode) statuses.get("enum")).add(ExpectationChecker.ANY_ERROR);
                    ep.set(k, oneOf(statuses));
                    break;
                }
                case "operation":
                    ep.set(k, oneOf(names(Dat.DTO_OPS)));
                    break;
                case "state":
                    ep.set(k, oneOf(names(Dat.EP_STATES)));
                    break;
                case "handle_type":
                    ep.set(k, oneOf(names(Dat.HANDLE_TYPES)));
                    break;
                case "stale":
                case "recv_idle":
                case "request_idle":
                    ep.set(k, oneOf(type("boolean")));
                    break;
                case "data":
                    ep.set(k, oneOf(anyOf(data(), perLine())));
                    break;
                case "message":
                    ep.set(k, oneOf(type("string")));
                    break;
                case "ep":
                    ep.set(k, oneOf(ref()));
                    break;
                case "evd":
                    ep.set(k, oneOf(anyOf(ref(), type("null"))));
                    break;
                case "attrs": {
                    ObjectNode attrs = MAPPER.createObjectNode();
                    attrs.put("type", "object").put("description", "Attributes of the result and their values.");
                    ObjectNode props = attrs.putObject("properties");
                    if (spec.outKind() != null) {
                        for (String f : Refs.FIELDS.get(spec.outKind())) {
                            props.set(f, oneOf(anyOf(type("integer"), type("boolean"),
                                    refOrExpr("reference or expression"), comparison())));
                        }
                    }
                    attrs.put("additionalProperties", false);
                    ep.set(k, attrs);
                    break;
                }
                default: // cookie, transfered_length, context: whole numbers
                    ep.set(k, oneOf(anyOf(type("integer"), refOrExpr("reference or expression"), comparison())));
                    break;
            }
        }
        String self = "#/$defs/expect_" + spec.name();
        for (String k : ExpectationChecker.CONDITIONAL) {
            ObjectNode ref = MAPPER.createObjectNode().put("$ref", self);
            if (k.equals("if")) {
                ObjectNode onStep = MAPPER.createObjectNode();
                onStep.put("type", "object").put("description", "Tests the result of an earlier named step of the"
                        + " process: its other keys are that step's call's expectation keys.");
                onStep.putArray("required").add(ExpectationChecker.STEP);
                onStep.putObject("properties").putObject(ExpectationChecker.STEP).put("type", "string");
                ep.set(k, anyOf(ref, onStep));
            } else {
                ep.set(k, ref);
            }
        }
        return expect;
    }

    /** A value, or {"one_of": [values]}. */
    private static ObjectNode oneOf(ObjectNode value) {
        ObjectNode choice = MAPPER.createObjectNode();
        choice.put("type", "object").put("additionalProperties", false);
        choice.putArray("required").add(ExpectationChecker.ONE_OF);
        ObjectNode list = choice.putObject("properties").putObject(ExpectationChecker.ONE_OF);
        list.put("type", "array").put("minItems", 1).set("items", value.deepCopy());
        list.put("description", "Any of these values is accepted.");
        ObjectNode n = MAPPER.createObjectNode();
        ArrayNode a = n.putArray("anyOf");
        a.add(value);
        a.add(choice);
        return n;
    }

    /** The top-level "outcomes": allowed and forbidden joint outcomes of the observations. */
    private static ObjectNode outcomes() {
        ObjectNode entry = MAPPER.createObjectNode();
        entry.put("type", "object").put("minProperties", 1)
                .put("description", "Observation names (\"observe\") and their values, or {\"one_of\": [...]}.");
        ObjectNode plainData = data();
        entry.putObject("propertyNames").put("pattern", Patterns.OUTCOME_KEY);
        entry.set("additionalProperties", oneOf(anyOf(type("string"), type("integer"), plainData)));
        ObjectNode list = MAPPER.createObjectNode();
        list.put("type", "array").put("minItems", 1).set("items", entry);
        ObjectNode o = MAPPER.createObjectNode();
        o.put("type", "object").put("additionalProperties", false).put("minProperties", 1);
        o.put("description", "The joint outcomes of the observations the scenario allows (at least one must match)"
                + " and forbids (none may match), checked after the run.");
        ObjectNode p = o.putObject("properties");
        p.set("allowed", list);
        p.set("forbidden", list.deepCopy());
        p.putObject("comment").put("type", "string");
        return o;
    }
}
