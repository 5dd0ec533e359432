package org.datsim.fabric.dat;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * DAT_RETURN values with the names and numbers of {@code dat2/dat_error.h} (DAT 2.0, OFA dapl 2.1.10). A return is
 * {@code class | type | subtype}: bits 31-30 the class, bits 29-16 the type, bits 15-0 the subtype. Errors carry
 * {@link #CLASS_ERROR}; compare with {@link #type(int)}, never with {@code ==} on the whole value.
 */
public final class DatReturn {

    private DatReturn() {
    }

    /** The error class bit. */
    public static final int CLASS_ERROR = 0x80000000;
    /** The warning class bit. */
    public static final int CLASS_WARNING = 0x40000000;
    /** The mask of the type bits. */
    public static final int TYPE_MASK = 0x3fff0000;
    /** The mask of the subtype bits. */
    public static final int SUBTYPE_MASK = 0x0000ffff;
    /** DAT_SUCCESS. */
    public static final int SUCCESS = 0x00000000;
    /** DAT_ABORT. */
    public static final int ABORT = 0x00010000;
    /** DAT_CONN_QUAL_IN_USE. */
    public static final int CONN_QUAL_IN_USE = 0x00020000;
    /** DAT_INSUFFICIENT_RESOURCES. */
    public static final int INSUFFICIENT_RESOURCES = 0x00030000;
    /** DAT_INTERNAL_ERROR. */
    public static final int INTERNAL_ERROR = 0x00040000;
    /** DAT_INVALID_HANDLE. */
    public static final int INVALID_HANDLE = 0x00050000;
    /** DAT_INVALID_PARAMETER. */
    public static final int INVALID_PARAMETER = 0x00060000;
    /** DAT_INVALID_STATE. */
    public static final int INVALID_STATE = 0x00070000;
    /** DAT_LENGTH_ERROR. */
    public static final int LENGTH_ERROR = 0x00080000;
    /** DAT_MODEL_NOT_SUPPORTED. */
    public static final int MODEL_NOT_SUPPORTED = 0x00090000;
    /** DAT_PROVIDER_NOT_FOUND. */
    public static final int PROVIDER_NOT_FOUND = 0x000A0000;
    /** DAT_PRIVILEGES_VIOLATION. */
    public static final int PRIVILEGES_VIOLATION = 0x000B0000;
    /** DAT_PROTECTION_VIOLATION. */
    public static final int PROTECTION_VIOLATION = 0x000C0000;
    /** DAT_QUEUE_EMPTY. */
    public static final int QUEUE_EMPTY = 0x000D0000;
    /** DAT_QUEUE_FULL. */
    public static final int QUEUE_FULL = 0x000E0000;
    /** DAT_TIMEOUT_EXPIRED. */
    public static final int TIMEOUT_EXPIRED = 0x000F0000;
    /** DAT_PROVIDER_ALREADY_REGISTERED. */
    public static final int PROVIDER_ALREADY_REGISTERED = 0x00100000;
    /** DAT_PROVIDER_IN_USE. */
    public static final int PROVIDER_IN_USE = 0x00110000;
    /** DAT_INVALID_ADDRESS. */
    public static final int INVALID_ADDRESS = 0x00120000;
    /** DAT_INTERRUPTED_CALL. */
    public static final int INTERRUPTED_CALL = 0x00130000;
    /** DAT_CONN_QUAL_UNAVAILABLE. */
    public static final int CONN_QUAL_UNAVAILABLE = 0x00140000;
    /** DAT_RESERVED_LMR. */
    public static final int RESERVED_LMR = 0x00150000;
    /** DAT_PORT_IN_USE. */
    public static final int PORT_IN_USE = 0x00160000;
    /** DAT_COMM_NOT_SUPPORTED. */
    public static final int COMM_NOT_SUPPORTED = 0x00170000;
    /** DAT_EXTENSION_BASE. */
    public static final int EXTENSION_BASE = 0x10000000;
    /** DAT_NOT_IMPLEMENTED. */
    public static final int NOT_IMPLEMENTED = 0x3FFF0000;
    /** Subtype DAT_NO_SUBTYPE. */
    public static final int SUB_NO_SUBTYPE = 0;
    /** Subtype DAT_SUB_INTERRUPTED. */
    public static final int SUB_SUB_INTERRUPTED = 1;
    /** Subtype DAT_RESOURCE_MEMORY. */
    public static final int SUB_RESOURCE_MEMORY = 2;
    /** Subtype DAT_RESOURCE_DEVICE. */
    public static final int SUB_RESOURCE_DEVICE = 3;
    /** Subtype DAT_RESOURCE_TEP. */
    public static final int SUB_RESOURCE_TEP = 4;
    /** Subtype DAT_RESOURCE_TEVD. */
    public static final int SUB_RESOURCE_TEVD = 5;
    /** Subtype DAT_RESOURCE_PROTECTION_DOMAIN. */
    public static final int SUB_RESOURCE_PROTECTION_DOMAIN = 6;
    /** Subtype DAT_RESOURCE_MEMORY_REGION. */
    public static final int SUB_RESOURCE_MEMORY_REGION = 7;
    /** Subtype DAT_RESOURCE_ERROR_HANDLER. */
    public static final int SUB_RESOURCE_ERROR_HANDLER = 8;
    /** Subtype DAT_RESOURCE_CREDITS. */
    public static final int SUB_RESOURCE_CREDITS = 9;
    /** Subtype DAT_RESOURCE_SRQ. */
    public static final int SUB_RESOURCE_SRQ = 10;
    /** Subtype DAT_INVALID_HANDLE_IA. */
    public static final int SUB_INVALID_HANDLE_IA = 11;
    /** Subtype DAT_INVALID_HANDLE_EP. */
    public static final int SUB_INVALID_HANDLE_EP = 12;
    /** Subtype DAT_INVALID_HANDLE_LMR. */
    public static final int SUB_INVALID_HANDLE_LMR = 13;
    /** Subtype DAT_INVALID_HANDLE_RMR. */
    public static final int SUB_INVALID_HANDLE_RMR = 14;
    /** Subtype DAT_INVALID_HANDLE_PZ. */
    public static final int SUB_INVALID_HANDLE_PZ = 15;
    /** Subtype DAT_INVALID_HANDLE_PSP. */
    public static final int SUB_INVALID_HANDLE_PSP = 16;
    /** Subtype DAT_INVALID_HANDLE_RSP. */
    public static final int SUB_INVALID_HANDLE_RSP = 17;
    /** Subtype DAT_INVALID_HANDLE_CR. */
    public static final int SUB_INVALID_HANDLE_CR = 18;
    /** Subtype DAT_INVALID_HANDLE_CNO. */
    public static final int SUB_INVALID_HANDLE_CNO = 19;
    /** Subtype DAT_INVALID_HANDLE_EVD_CR. */
    public static final int SUB_INVALID_HANDLE_EVD_CR = 20;
    /** Subtype DAT_INVALID_HANDLE_EVD_REQUEST. */
    public static final int SUB_INVALID_HANDLE_EVD_REQUEST = 21;
    /** Subtype DAT_INVALID_HANDLE_EVD_RECV. */
    public static final int SUB_INVALID_HANDLE_EVD_RECV = 22;
    /** Subtype DAT_INVALID_HANDLE_EVD_CONN. */
    public static final int SUB_INVALID_HANDLE_EVD_CONN = 23;
    /** Subtype DAT_INVALID_HANDLE_EVD_ASYNC. */
    public static final int SUB_INVALID_HANDLE_EVD_ASYNC = 24;
    /** Subtype DAT_INVALID_HANDLE_SRQ. */
    public static final int SUB_INVALID_HANDLE_SRQ = 25;
    /** Subtype DAT_INVALID_HANDLE_CSP. */
    public static final int SUB_INVALID_HANDLE_CSP = 26;
    /** Subtype DAT_INVALID_HANDLE1. */
    public static final int SUB_INVALID_HANDLE1 = 27;
    /** Subtype DAT_INVALID_HANDLE2. */
    public static final int SUB_INVALID_HANDLE2 = 28;
    /** Subtype DAT_INVALID_HANDLE3. */
    public static final int SUB_INVALID_HANDLE3 = 29;
    /** Subtype DAT_INVALID_HANDLE4. */
    public static final int SUB_INVALID_HANDLE4 = 30;
    /** Subtype DAT_INVALID_HANDLE5. */
    public static final int SUB_INVALID_HANDLE5 = 31;
    /** Subtype DAT_INVALID_HANDLE6. */
    public static final int SUB_INVALID_HANDLE6 = 32;
    /** Subtype DAT_INVALID_HANDLE7. */
    public static final int SUB_INVALID_HANDLE7 = 33;
    /** Subtype DAT_INVALID_HANDLE8. */
    public static final int SUB_INVALID_HANDLE8 = 34;
    /** Subtype DAT_INVALID_HANDLE9. */
    public static final int SUB_INVALID_HANDLE9 = 35;
    /** Subtype DAT_INVALID_HANDLE10. */
    public static final int SUB_INVALID_HANDLE10 = 36;
    /** Subtype DAT_INVALID_ARG1. */
    public static final int SUB_INVALID_ARG1 = 37;
    /** Subtype DAT_INVALID_ARG2. */
    public static final int SUB_INVALID_ARG2 = 38;
    /** Subtype DAT_INVALID_ARG3. */
    public static final int SUB_INVALID_ARG3 = 39;
    /** Subtype DAT_INVALID_ARG4. */
    public static final int SUB_INVALID_ARG4 = 40;
    /** Subtype DAT_INVALID_ARG5. */
    public static final int SUB_INVALID_ARG5 = 41;
    /** Subtype DAT_INVALID_ARG6. */
    public static final int SUB_INVALID_ARG6 = 42;
    /** Subtype DAT_INVALID_ARG7. */
    public static final int SUB_INVALID_ARG7 = 43;
    /** Subtype DAT_INVALID_ARG8. */
    public static final int SUB_INVALID_ARG8 = 44;
    /** Subtype DAT_INVALID_ARG9. */
    public static final int SUB_INVALID_ARG9 = 45;
    /** Subtype DAT_INVALID_ARG10. */
    public static final int SUB_INVALID_ARG10 = 46;
    /** Subtype DAT_INVALID_STATE_EP_UNCONNECTED. */
    public static final int SUB_INVALID_STATE_EP_UNCONNECTED = 47;
    /** Subtype DAT_INVALID_STATE_EP_ACTCONNPENDING. */
    public static final int SUB_INVALID_STATE_EP_ACTCONNPENDING = 48;
    /** Subtype DAT_INVALID_STATE_EP_PASSCONNPENDING. */
    public static final int SUB_INVALID_STATE_EP_PASSCONNPENDING = 49;
    /** Subtype DAT_INVALID_STATE_EP_TENTCONNPENDING. */
    public static final int SUB_INVALID_STATE_EP_TENTCONNPENDING = 50;
    /** Subtype DAT_INVALID_STATE_EP_CONNECTED. */
    public static final int SUB_INVALID_STATE_EP_CONNECTED = 51;
    /** Subtype DAT_INVALID_STATE_EP_DISCONNECTED. */
    public static final int SUB_INVALID_STATE_EP_DISCONNECTED = 52;
    /** Subtype DAT_INVALID_STATE_EP_RESERVED. */
    public static final int SUB_INVALID_STATE_EP_RESERVED = 53;
    /** Subtype DAT_INVALID_STATE_EP_COMPLPENDING. */
    public static final int SUB_INVALID_STATE_EP_COMPLPENDING = 54;
    /** Subtype DAT_INVALID_STATE_EP_DISCPENDING. */
    public static final int SUB_INVALID_STATE_EP_DISCPENDING = 55;
    /** Subtype DAT_INVALID_STATE_EP_PROVIDERCONTROL. */
    public static final int SUB_INVALID_STATE_EP_PROVIDERCONTROL = 56;
    /** Subtype DAT_INVALID_STATE_EP_NOTREADY. */
    public static final int SUB_INVALID_STATE_EP_NOTREADY = 57;
    /** Subtype DAT_INVALID_STATE_EP_RECV_WATERMARK. */
    public static final int SUB_INVALID_STATE_EP_RECV_WATERMARK = 58;
    /** Subtype DAT_INVALID_STATE_EP_PZ. */
    public static final int SUB_INVALID_STATE_EP_PZ = 59;
    /** Subtype DAT_INVALID_STATE_EP_EVD_REQUEST. */
    public static final int SUB_INVALID_STATE_EP_EVD_REQUEST = 60;
    /** Subtype DAT_INVALID_STATE_EP_EVD_RECV. */
    public static final int SUB_INVALID_STATE_EP_EVD_RECV = 61;
    /** Subtype DAT_INVALID_STATE_EP_EVD_CONNECT. */
    public static final int SUB_INVALID_STATE_EP_EVD_CONNECT = 62;
    /** Subtype DAT_INVALID_STATE_EP_UNCONFIGURED. */
    public static final int SUB_INVALID_STATE_EP_UNCONFIGURED = 63;
    /** Subtype DAT_INVALID_STATE_EP_UNCONFRESERVED. */
    public static final int SUB_INVALID_STATE_EP_UNCONFRESERVED = 64;
    /** Subtype DAT_INVALID_STATE_EP_UNCONFPASSIVE. */
    public static final int SUB_INVALID_STATE_EP_UNCONFPASSIVE = 65;
    /** Subtype DAT_INVALID_STATE_EP_UNCONFTENTATIVE. */
    public static final int SUB_INVALID_STATE_EP_UNCONFTENTATIVE = 66;
    /** Subtype DAT_INVALID_STATE_CNO_IN_USE. */
    public static final int SUB_INVALID_STATE_CNO_IN_USE = 67;
    /** Subtype DAT_INVALID_STATE_CNO_DEAD. */
    public static final int SUB_INVALID_STATE_CNO_DEAD = 68;
    /** Subtype DAT_INVALID_STATE_EVD_OPEN. */
    public static final int SUB_INVALID_STATE_EVD_OPEN = 69;
    /** Subtype DAT_INVALID_STATE_EVD_ENABLED. */
    public static final int SUB_INVALID_STATE_EVD_ENABLED = 70;
    /** Subtype DAT_INVALID_STATE_EVD_DISABLED. */
    public static final int SUB_INVALID_STATE_EVD_DISABLED = 71;
    /** Subtype DAT_INVALID_STATE_EVD_WAITABLE. */
    public static final int SUB_INVALID_STATE_EVD_WAITABLE = 72;
    /** Subtype DAT_INVALID_STATE_EVD_UNWAITABLE. */
    public static final int SUB_INVALID_STATE_EVD_UNWAITABLE = 73;
    /** Subtype DAT_INVALID_STATE_EVD_IN_USE. */
    public static final int SUB_INVALID_STATE_EVD_IN_USE = 74;
    /** Subtype DAT_INVALID_STATE_EVD_CONFIG_NOTIFY. */
    public static final int SUB_INVALID_STATE_EVD_CONFIG_NOTIFY = 75;
    /** Subtype DAT_INVALID_STATE_EVD_CONFIG_SOLICITED. */
    public static final int SUB_INVALID_STATE_EVD_CONFIG_SOLICITED = 76;
    /** Subtype DAT_INVALID_STATE_EVD_CONFIG_THRESHOLD. */
    public static final int SUB_INVALID_STATE_EVD_CONFIG_THRESHOLD = 77;
    /** Subtype DAT_INVALID_STATE_EVD_WAITER. */
    public static final int SUB_INVALID_STATE_EVD_WAITER = 78;
    /** Subtype DAT_INVALID_STATE_EVD_ASYNC. */
    public static final int SUB_INVALID_STATE_EVD_ASYNC = 79;
    /** Subtype DAT_INVALID_STATE_IA_IN_USE. */
    public static final int SUB_INVALID_STATE_IA_IN_USE = 80;
    /** Subtype DAT_INVALID_STATE_LMR_IN_USE. */
    public static final int SUB_INVALID_STATE_LMR_IN_USE = 81;
    /** Subtype DAT_INVALID_STATE_LMR_FREE. */
    public static final int SUB_INVALID_STATE_LMR_FREE = 82;
    /** Subtype DAT_INVALID_STATE_PZ_IN_USE. */
    public static final int SUB_INVALID_STATE_PZ_IN_USE = 83;
    /** Subtype DAT_INVALID_STATE_PZ_FREE. */
    public static final int SUB_INVALID_STATE_PZ_FREE = 84;
    /** Subtype DAT_INVALID_STATE_SRQ_OPERATIONAL. */
    public static final int SUB_INVALID_STATE_SRQ_OPERATIONAL = 85;
    /** Subtype DAT_INVALID_STATE_SRQ_ERROR. */
    public static final int SUB_INVALID_STATE_SRQ_ERROR = 86;
    /** Subtype DAT_INVALID_STATE_SRQ_IN_USE. */
    public static final int SUB_INVALID_STATE_SRQ_IN_USE = 87;
    /** Subtype DAT_INVALID_STATE_SRQ_SHUTDOWN. */
    public static final int SUB_INVALID_STATE_SRQ_SHUTDOWN = 88;
    /** Subtype DAT_PRIVILEGES_READ. */
    public static final int SUB_PRIVILEGES_READ = 89;
    /** Subtype DAT_PRIVILEGES_WRITE. */
    public static final int SUB_PRIVILEGES_WRITE = 90;
    /** Subtype DAT_PRIVILEGES_RDMA_READ. */
    public static final int SUB_PRIVILEGES_RDMA_READ = 91;
    /** Subtype DAT_PRIVILEGES_RDMA_WRITE. */
    public static final int SUB_PRIVILEGES_RDMA_WRITE = 92;
    /** Subtype DAT_PROTECTION_READ. */
    public static final int SUB_PROTECTION_READ = 93;
    /** Subtype DAT_PROTECTION_WRITE. */
    public static final int SUB_PROTECTION_WRITE = 94;
    /** Subtype DAT_PROTECTION_RDMA_READ. */
    public static final int SUB_PROTECTION_RDMA_READ = 95;
    /** Subtype DAT_PROTECTION_RDMA_WRITE. */
    public static final int SUB_PROTECTION_RDMA_WRITE = 96;
    /** Subtype DAT_INVALID_ADDRESS_UNSUPPORTED. */
    public static final int SUB_INVALID_ADDRESS_UNSUPPORTED = 97;
    /** Subtype DAT_INVALID_ADDRESS_UNREACHABLE. */
    public static final int SUB_INVALID_ADDRESS_UNREACHABLE = 98;
    /** Subtype DAT_INVALID_ADDRESS_MALFORMED. */
    public static final int SUB_INVALID_ADDRESS_MALFORMED = 99;
    /** Subtype DAT_NAME_NOT_REGISTERED. */
    public static final int SUB_NAME_NOT_REGISTERED = 100;
    /** Subtype DAT_MAJOR_NOT_FOUND. */
    public static final int SUB_MAJOR_NOT_FOUND = 101;
    /** Subtype DAT_MINOR_NOT_FOUND. */
    public static final int SUB_MINOR_NOT_FOUND = 102;
    /** Subtype DAT_THREAD_SAFETY_NOT_FOUND. */
    public static final int SUB_THREAD_SAFETY_NOT_FOUND = 103;

    private static final Map<Integer, String> TYPE_NAMES = new LinkedHashMap<>();
    private static final Map<Integer, String> SUBTYPE_NAMES = new LinkedHashMap<>();
    private static final Map<String, Integer> TYPES_BY_NAME = new LinkedHashMap<>();
    private static final Map<String, Integer> SUBTYPES_BY_NAME = new LinkedHashMap<>();

    static {
        type("DAT_SUCCESS", 0x00000000);
        type("DAT_ABORT", 0x00010000);
        type("DAT_CONN_QUAL_IN_USE", 0x00020000);
        type("DAT_INSUFFICIENT_RESOURCES", 0x00030000);
        type("DAT_INTERNAL_ERROR", 0x00040000);
        type("DAT_INVALID_HANDLE", 0x00050000);
        type("DAT_INVALID_PARAMETER", 0x00060000);
        type("DAT_INVALID_STATE", 0x00070000);
        type("DAT_LENGTH_ERROR", 0x00080000);
        type("DAT_MODEL_NOT_SUPPORTED", 0x00090000);
        type("DAT_PROVIDER_NOT_FOUND", 0x000A0000);
        type("DAT_PRIVILEGES_VIOLATION", 0x000B0000);
        type("DAT_PROTECTION_VIOLATION", 0x000C0000);
        type("DAT_QUEUE_EMPTY", 0x000D0000);
        type("DAT_QUEUE_FULL", 0x000E0000);
        type("DAT_TIMEOUT_EXPIRED", 0x000F0000);
        type("DAT_PROVIDER_ALREADY_REGISTERED", 0x00100000);
        type("DAT_PROVIDER_IN_USE", 0x00110000);
        type("DAT_INVALID_ADDRESS", 0x00120000);
        type("DAT_INTERRUPTED_CALL", 0x00130000);
        type("DAT_CONN_QUAL_UNAVAILABLE", 0x00140000);
        type("DAT_RESERVED_LMR", 0x00150000);
        type("DAT_PORT_IN_USE", 0x00160000);
        type("DAT_COMM_NOT_SUPPORTED", 0x00170000);
        type("DAT_EXTENSION_BASE", 0x10000000);
        type("DAT_NOT_IMPLEMENTED", 0x3FFF0000);
        subtype("DAT_NO_SUBTYPE", 0);
        subtype("DAT_SUB_INTERRUPTED", 1);
        subtype("DAT_RESOURCE_MEMORY", 2);
        subtype("DAT_RESOURCE_DEVICE", 3);
        subtype("DAT_RESOURCE_TEP", 4);
        subtype("DAT_RESOURCE_TEVD", 5);
        subtype("DAT_RESOURCE_PROTECTION_DOMAIN", 6);
        subtype("DAT_RESOURCE_MEMORY_REGION", 7);
        subtype("DAT_RESOURCE_ERROR_HANDLER", 8);
        subtype("DAT_RESOURCE_CREDITS", 9);
        subtype("DAT_RESOURCE_SRQ", 10);
        subtype("DAT_INVALID_HANDLE_IA", 11);
        subtype("DAT_INVALID_HANDLE_EP", 12);
        subtype("DAT_INVALID_HANDLE_LMR", 13);
        subtype("DAT_INVALID_HANDLE_RMR", 14);
        subtype("DAT_INVALID_HANDLE_PZ", 15);
        subtype("DAT_INVALID_HANDLE_PSP", 16);
        subtype("DAT_INVALID_HANDLE_RSP", 17);
        subtype("DAT_INVALID_HANDLE_CR", 18);
        subtype("DAT_INVALID_HANDLE_CNO", 19);
        subtype("DAT_INVALID_HANDLE_EVD_CR", 20);
        subtype("DAT_INVALID_HANDLE_EVD_REQUEST", 21);
        subtype("DAT_INVALID_HANDLE_EVD_RECV", 22);
        subtype("DAT_INVALID_HANDLE_EVD_CONN", 23);
        subtype("DAT_INVALID_HANDLE_EVD_ASYNC", 24);
        subtype("DAT_INVALID_HANDLE_SRQ", 25);
        subtype("DAT_INVALID_HANDLE_CSP", 26);
        subtype("DAT_INVALID_HANDLE1", 27);
        subtype("DAT_INVALID_HANDLE2", 28);
        subtype("DAT_INVALID_HANDLE3", 29);
        subtype("DAT_INVALID_HANDLE4", 30);
        subtype("DAT_INVALID_HANDLE5", 31);
        subtype("DAT_INVALID_HANDLE6", 32);
        subtype("DAT_INVALID_HANDLE7", 33);
        subtype("DAT_INVALID_HANDLE8", 34);
        subtype("DAT_INVALID_HANDLE9", 35);
        subtype("DAT_INVALID_HANDLE10", 36);
        subtype("DAT_INVALID_ARG1", 37);
        subtype("DAT_INVALID_ARG2", 38);
        subtype("DAT_INVALID_ARG3", 39);
        subtype("DAT_INVALID_ARG4", 40);
        subtype("DAT_INVALID_ARG5", 41);
        subtype("DAT_INVALID_ARG6", 42);
        subtype("DAT_INVALID_ARG7", 43);
        subtype("DAT_INVALID_ARG8", 44);
        subtype("DAT_INVALID_ARG9", 45);
        subtype("DAT_INVALID_ARG10", 46);
        subtype("DAT_INVALID_STATE_EP_UNCONNECTED", 47);
        subtype("DAT_INVALID_STATE_EP_ACTCONNPENDING", 48);
        subtype("DAT_INVALID_STATE_EP_PASSCONNPENDING", 49);
        subtype("DAT_INVALID_STATE_EP_TENTCONNPENDING", 50);
        subtype("DAT_INVALID_STATE_EP_CONNECTED", 51);
        subtype("DAT_INVALID_STATE_EP_DISCONNECTED", 52);
        subtype("DAT_INVALID_STATE_EP_RESERVED", 53);
        subtype("DAT_INVALID_STATE_EP_COMPLPENDING", 54);
        subtype("DAT_INVALID_STATE_EP_DISCPENDING", 55);
        subtype("DAT_INVALID_STATE_EP_PROVIDERCONTROL", 56);
        subtype("DAT_INVALID_STATE_EP_NOTREADY", 57);
        subtype("DAT_INVALID_STATE_EP_RECV_WATERMARK", 58);
        subtype("DAT_INVALID_STATE_EP_PZ", 59);
        subtype("DAT_INVALID_STATE_EP_EVD_REQUEST", 60);
        subtype("DAT_INVALID_STATE_EP_EVD_RECV", 61);
        subtype("DAT_INVALID_STATE_EP_EVD_CONNECT", 62);
        subtype("DAT_INVALID_STATE_EP_UNCONFIGURED", 63);
        subtype("DAT_INVALID_STATE_EP_UNCONFRESERVED", 64);
        subtype("DAT_INVALID_STATE_EP_UNCONFPASSIVE", 65);
        subtype("DAT_INVALID_STATE_EP_UNCONFTENTATIVE", 66);
        subtype("DAT_INVALID_STATE_CNO_IN_USE", 67);
        subtype("DAT_INVALID_STATE_CNO_DEAD", 68);
        subtype("DAT_INVALID_STATE_EVD_OPEN", 69);
        subtype("DAT_INVALID_STATE_EVD_ENABLED", 70);
        subtype("DAT_INVALID_STATE_EVD_DISABLED", 71);
        subtype("DAT_INVALID_STATE_EVD_WAITABLE", 72);
        subtype("DAT_INVALID_STATE_EVD_UNWAITABLE", 73);
        subtype("DAT_INVALID_STATE_EVD_IN_USE", 74);
        subtype("DAT_INVALID_STATE_EVD_CONFIG_NOTIFY", 75);
        subtype("DAT_INVALID_STATE_EVD_CONFIG_SOLICITED", 76);
        subtype("DAT_INVALID_STATE_EVD_CONFIG_THRESHOLD", 77);
        subtype("DAT_INVALID_STATE_EVD_WAITER", 78);
        subtype("DAT_INVALID_STATE_EVD_ASYNC", 79);
        subtype("DAT_INVALID_STATE_IA_IN_USE", 80);
        subtype("DAT_INVALID_STATE_LMR_IN_USE", 81);
        subtype("DAT_INVALID_STATE_LMR_FREE", 82);
        subtype("DAT_INVALID_STATE_PZ_IN_USE", 83);
        subtype("DAT_INVALID_STATE_PZ_FREE", 84);
        subtype("DAT_INVALID_STATE_SRQ_OPERATIONAL", 85);
        subtype("DAT_INVALID_STATE_SRQ_ERROR", 86);
        subtype("DAT_INVALID_STATE_SRQ_IN_USE", 87);
        subtype("DAT_INVALID_STATE_SRQ_SHUTDOWN", 88);
        subtype("DAT_PRIVILEGES_READ", 89);
        subtype("DAT_PRIVILEGES_WRITE", 90);
        subtype("DAT_PRIVILEGES_RDMA_READ", 91);
        subtype("DAT_PRIVILEGES_RDMA_WRITE", 92);
        subtype("DAT_PROTECTION_READ", 93);
        subtype("DAT_PROTECTION_WRITE", 94);
        subtype("DAT_PROTECTION_RDMA_READ", 95);
        subtype("DAT_PROTECTION_RDMA_WRITE", 96);
        subtype("DAT_INVALID_ADDRESS_UNSUPPORTED", 97);
        subtype("DAT_INVALID_ADDRESS_UNREACHABLE", 98);
        subtype("DAT_INVALID_ADDRESS_MALFORMED", 99);
        subtype("DAT_NAME_NOT_REGISTERED", 100);
        subtype("DAT_MAJOR_NOT_FOUND", 101);
        subtype("DAT_MINOR_NOT_FOUND", 102);
        subtype("DAT_THREAD_SAFETY_NOT_FOUND", 103);
        TYPES_BY_NAME.put("DAT_NAME_NOT_FOUND", PROVIDER_NOT_FOUND);
    }

    private static void type(String name, int value) {
        TYPE_NAMES.putIfAbsent(value, name);
        TYPES_BY_NAME.put(name, value);
    }

    private static void subtype(String name, int value) {
        SUBTYPE_NAMES.put(value, name);
        SUBTYPES_BY_NAME.put(name, value);
    }

    /**
     * Builds an error return as dapl does: {@code DAT_CLASS_ERROR | type | subtype}.
     *
     * @param type one of the type constants, for example {@link #INVALID_STATE}
     * @param subtype one of the {@code SUB_} constants, or 0
     * @return the return value
     */
    public static int error(int type, int subtype) {
        return CLASS_ERROR | type | subtype;
    }

    /** Returns the type bits of a return (DAT_GET_TYPE). */
    public static int type(int ret) {
        return ret & TYPE_MASK;
    }

    /** Returns the subtype bits of a return (DAT_GET_SUBTYPE). */
    public static int subtype(int ret) {
        return ret & SUBTYPE_MASK;
    }

    /** Returns true if the return is DAT_SUCCESS (type and subtype zero). */
    public static boolean isSuccess(int ret) {
        return (ret & (TYPE_MASK | SUBTYPE_MASK)) == 0;
    }

    /** Returns the name of the type of a return, for example {@code "DAT_INVALID_STATE"}. */
    public static String typeName(int ret) {
        String name = TYPE_NAMES.get(type(ret));
        return name != null ? name : String.format("DAT_TYPE_0x%08x", type(ret));
    }

    /** Returns the name of the subtype of a return, or null when it has none. */
    public static String subtypeName(int ret) {
        int s = subtype(ret);
        return s == 0 ? null : SUBTYPE_NAMES.getOrDefault(s, "DAT_SUBTYPE_" + s);
    }

    /**
     * Looks up a type by its name.
     *
     * @param name for example {@code "DAT_QUEUE_EMPTY"}
     * @return the type value, or null if there is no such name
     */
    public static Integer typeByName(String name) {
        return TYPES_BY_NAME.get(name);
    }

    /**
     * Looks up a subtype by its name.
     *
     * @param name for example {@code "DAT_INVALID_STATE_EP_UNCONNECTED"}
     * @return the subtype value, or null if there is no such name
     */
    public static Integer subtypeByName(String name) {
        return SUBTYPES_BY_NAME.get(name);
    }

    /**
     * Returns the text dat_strerror gives for a return: the type name and, where present, the subtype name.
     *
     * @param ret a return value
     * @return for example {@code "DAT_INVALID_STATE DAT_INVALID_STATE_EP_UNCONNECTED"}
     */
    public static String describe(int ret) {
        String sub = subtypeName(ret);
        return sub == null ? typeName(ret) : typeName(ret) + " " + sub;
    }
}
