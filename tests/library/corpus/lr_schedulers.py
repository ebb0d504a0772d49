# pytorch/pytorch torch/optim/lr_scheduler.py docstrings and the optim docs ("How to adjust learning rate"): StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR, LambdaLR, LinearLR, OneCycleLR over 8 steps.
import torch
import torch.nn as nn
from torch.optim import lr_scheduler

torch.manual_seed(0)
model = nn.Linear(2, 1)
x = torch.randn(4, 2)


def trace(name, make_scheduler, lr=0.1, **optimizer_kwargs):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, **optimizer_kwargs)
    scheduler = make_scheduler(optimizer)
    lrs = [round(scheduler.get_last_lr()[0], 6)]
    for epoch in range(8):
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
        scheduler.step()
        lrs.append(round(scheduler.get_last_lr()[0], 6))
    print(name, lrs)
    return optimizer, scheduler


trace("StepLR", lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.5))
trace("MultiStepLR", lambda o: lr_scheduler.MultiStepLR(o, milestones=[2, 5], gamma=0.1))
trace("ExponentialLR", lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9))
trace("CosineAnnealingLR", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=8, eta_min=0.001))
trace("LambdaLR", lambda o: lr_scheduler.LambdaLR(o, lr_lambda=lambda epoch: 0.95 ** epoch))
trace("LinearLR", lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4))
optimizer, scheduler = trace("OneCycleLR", lambda o: lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=10),
                             momentum=0.9)
print(round(optimizer.param_groups[0]["momentum"], 6), sorted(k for k in optimizer.param_groups[0] if "lr" in k))

# the scheduler writes into param_groups, and its state_dict records where it is
optimizer, scheduler = trace("StepLR", lambda o: lr_scheduler.StepLR(o, step_size=2, gamma=0.1))
print(round(optimizer.param_groups[0]["lr"], 6), optimizer.param_groups[0]["initial_lr"])
state = scheduler.state_dict()
print(state["last_epoch"], state["step_size"], state["gamma"], state["base_lrs"])
