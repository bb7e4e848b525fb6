"""An Open Inference Protocol gRPC client, as a Python user writes one.

Its stubs (oip_pb2, oip_pb2_grpc) are generated from server/oippb/oip.proto
by grpc_tools.protoc before it runs. It calls every RPC of the service and
prints what it got as one JSON object:

    python3 oip_client.py ADDRESS MODEL ROWS.json

ROWS.json is {"rows": [[...], ...]}. The rows are sent three ways: FP32 in
fp32_contents, FP32 as raw_input_contents, FP64 in fp64_contents; and as
UINT8, each value v as int(abs(v) * 100) % 256, in uint_contents and as
raw_input_contents.
"""

import json
import struct
import sys

import grpc

import oip_pb2 as pb
import oip_pb2_grpc as pbg


def infer(stub, model, rows, datatype, raw):
    n, d = len(rows), len(rows[0])
    flat = [v for row in rows for v in row]
    tensor = pb.ModelInferRequest.InferInputTensor(name="input", datatype=datatype, shape=[n, d])
    req = pb.ModelInferRequest(model_name=model, id="py-" + datatype + ("-raw" if raw else ""), inputs=[tensor])
    if datatype == "UINT8":
        flat = [int(abs(v) * 100) % 256 for v in flat]
    if raw and datatype == "UINT8":
        req.raw_input_contents.append(bytes(flat))
    elif raw:
        req.raw_input_contents.append(struct.pack("<%df" % len(flat), *flat))
    elif datatype == "UINT8":
        tensor.contents.uint_contents.extend(flat)
        req.inputs[0].CopyFrom(tensor)
    elif datatype == "FP32":
        tensor.contents.fp32_contents.extend(flat)
        req.inputs[0].CopyFrom(tensor)
    else:
        tensor.contents.fp64_contents.extend(flat)
        req.inputs[0].CopyFrom(tensor)
    resp = stub.ModelInfer(req, timeout=10)
    out = {"id": resp.id, "model_name": resp.model_name, "model_version": resp.model_version}
    for i, o in enumerate(resp.outputs):
        if resp.raw_output_contents:
            b = resp.raw_output_contents[i]
            if o.datatype == "INT64":
                vals = list(struct.unpack("<%dq" % (len(b) // 8), b))
            elif o.datatype == "FP32":
                vals = list(struct.unpack("<%df" % (len(b) // 4), b))
            else:
                vals = list(struct.unpack("<%dd" % (len(b) // 8), b))
        elif o.datatype == "INT64":
            vals = list(o.contents.int64_contents)
        elif o.datatype == "FP32":
            vals = list(o.contents.fp32_contents)
        else:
            vals = list(o.contents.fp64_contents)
        out[o.name] = {"datatype": o.datatype, "shape": list(o.shape), "data": vals}
    return out


def main():
    address, model, rows_file = sys.argv[1:4]
    with open(rows_file) as f:
        rows = json.load(f)["rows"]
    with grpc.insecure_channel(address) as channel:
        stub = pbg.GRPCInferenceServiceStub(channel)
        result = {
            "live": stub.ServerLive(pb.ServerLiveRequest(), timeout=10).live,
            "ready": stub.ServerReady(pb.ServerReadyRequest(), timeout=10).ready,
            "model_ready": stub.ModelReady(pb.ModelReadyRequest(name=model), timeout=10).ready,
            "other_ready": stub.ModelReady(pb.ModelReadyRequest(name=model + "-other"), timeout=10).ready,
        }
        sm = stub.ServerMetadata(pb.ServerMetadataRequest(), timeout=10)
        result["server"] = {"name": sm.name, "version": sm.version}
        mm = stub.ModelMetadata(pb.ModelMetadataRequest(name=model), timeout=10)
        result["metadata"] = {
            "name": mm.name,
            "versions": list(mm.versions),
            "inputs": [{"name": t.name, "datatype": t.datatype, "shape": list(t.shape)} for t in mm.inputs],
            "outputs": [{"name": t.name, "datatype": t.datatype, "shape": list(t.shape)} for t in mm.outputs],
        }
        result["fp32"] = infer(stub, model, rows, "FP32", False)
        result["fp32_raw"] = infer(stub, model, rows, "FP32", True)
        result["fp64"] = infer(stub, model, rows, "FP64", False)
        result["uint8"] = infer(stub, model, rows, "UINT8", False)
        result["uint8_raw"] = infer(stub, model, rows, "UINT8", True)
        errors = {}
        try:
            stub.ModelMetadata(pb.ModelMetadataRequest(name=model + "-other"), timeout=10)
        except grpc.RpcError as e:
            errors["unknown_model"] = e.code().name
        try:
            bad = [row[:-1] for row in rows]
            infer(stub, model, bad, "FP32", False)
        except grpc.RpcError as e:
            errors["wrong_width"] = e.code().name
        result["errors"] = errors
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
