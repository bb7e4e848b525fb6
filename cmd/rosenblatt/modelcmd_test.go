package main

import (
	"github.com/rosenblatt-go/rosenblatt/internal/modelcmd"
	"github.com/rosenblatt-go/rosenblatt/model"
)

// loadModel reads a model file as the subcommands do (package modelcmd's).
func loadModel(path string) (model.Model, error) { return modelcmd.LoadModel(path) }

// binaryMagic opens every binary model file (package modelcmd's constant).
const binaryMagic = "RBLTPCPT"
